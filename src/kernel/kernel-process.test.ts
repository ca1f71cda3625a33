import { describe, expect, it } from "vitest";
import { KERNEL_LAUNCHER_VARIABLE, parseProtocolLine, requestedLauncher } from "./kernel-process.js";

const KEY = Buffer.from("0123456789abcdef0123456789abcdef");

describe("parseProtocolLine", () => {
  it("reads a tool call, dropping keys the protocol does not have", () => {
    expect(
      parseProtocolLine('{"t":"call","id":3,"name":"get_customer","args":{"customer_id":10042},"x":1}', KEY),
    ).toEqual({
      source: "worker",
      message: { t: "call", id: 3, name: "get_customer", args: { customer_id: 10042 } },
    });
  });

  it("refuses a tool call with a field of the wrong type", () => {
    for (const line of [
      '{"t":"call","id":"3","name":"a","args":{}}',
      '{"t":"call","id":3,"name":7,"args":{}}',
      '{"t":"call","id":3,"name":"a","args":[1]}',
      '{"t":"call","id":3,"name":"a","args":null}',
      '{"t":"call","id":3,"name":"a"}',
      '{"t":"call","id":3,"name":"a","args":{}',
    ])
      expect(parseProtocolLine(line, KEY), line).toBeUndefined();
  });

  it("accepts a supervisor line only with the supervisor's key", () => {
    expect(parseProtocolLine('{"t":"stopped"}', KEY)).toBeUndefined();
    expect(parseProtocolLine(`{"t":"stopped","key":"${KEY.toString()}"}`, KEY)).toEqual({
      source: "supervisor",
      message: { t: "stopped" },
    });
  });
});

describe("requestedLauncher", () => {
  it("takes the option, else PROGAGENT_KERNEL_LAUNCHER, else bwrap, and names a bad variable", () => {
    const previous = process.env[KERNEL_LAUNCHER_VARIABLE];
    try {
      delete process.env[KERNEL_LAUNCHER_VARIABLE];
      expect(requestedLauncher(undefined)).toBe("bwrap");
      process.env[KERNEL_LAUNCHER_VARIABLE] = "template";
      expect(requestedLauncher(undefined)).toBe("template");
      expect(requestedLauncher("bwrap")).toBe("bwrap");
      process.env[KERNEL_LAUNCHER_VARIABLE] = "zygote";
      expect(() => requestedLauncher(undefined)).toThrow(
        /PROGAGENT_KERNEL_LAUNCHER must be "bwrap" or "template", not "zygote"/,
      );
    } finally {
      if (previous === undefined) delete process.env[KERNEL_LAUNCHER_VARIABLE];
      else process.env[KERNEL_LAUNCHER_VARIABLE] = previous;
    }
  });
});
