import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createTempDir } from "../core/index.js";
import {
  KERNEL_LAUNCHER_VARIABLE,
  KernelProcess,
  parseProtocolLine,
  requestedLauncher,
} from "./kernel-process.js";

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

describe("KernelProcess output after dispose", () => {
  it("keeps what the program wrote for an execution that settles after a violation disposed the process", async () => {
    // The order that failed under load (attacks-protocol M1): the execution settled and awaited its disk check, a
    // protocol violation disposed the process meanwhile, then the execution read its output from closed files.
    const io = createTempDir("kernel-process-test");
    try {
      const child = new KernelProcess({
        interpreter: "/usr/bin/python3",
        workspaceDir: io.path,
        bootstrapPath: fileURLToPath(new URL("./python/bootstrap.py", import.meta.url)),
        ioDir: io.path,
        sandbox: false,
        limits: {
          memoryBytes: 256 * 1024 * 1024,
          processes: 16,
          fileSizeBytes: 1 << 20,
          cpuSeconds: 10,
          openFiles: 64,
          diskBytes: 1 << 20,
          tmpBytes: 1 << 20,
          workspaceEntries: 1000,
        },
        onMessage: () => undefined,
        onViolation: () => undefined,
        onExit: () => undefined,
      });
      appendFileSync(join(io.path, "stdout"), "printed before the violation\n");
      appendFileSync(join(io.path, "stderr"), "a warning\n");
      child.dispose();
      child.dispose();
      expect(child.takeOutput()).toEqual({
        stdout: "printed before the violation\n",
        stderr: "a warning\n",
        stdoutBytes: 29,
        stderrBytes: 10,
      });
      // Taken once: a second read has nothing left, and still does not throw.
      expect(child.takeOutput().stdout).toBe("");
      await child.exitedPromise;
    } finally {
      io.dispose();
    }
  });
});
