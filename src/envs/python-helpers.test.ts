import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { pythonClientHelpers } from "./python-helpers.js";

/** Runs the helpers against scripted tools: each tool name maps to the results it gives, call by call. */
function runWithTools(helpers: string, script: string, program: string): string {
  const fake = String.raw`import json
SCRIPT = json.loads(${JSON.stringify(script)})
LOG = []
class Tools:
    def __getitem__(self, name):
        def tool(**kwargs):
            LOG.append(name)
            step = SCRIPT[name].pop(0) if len(SCRIPT[name]) > 1 else SCRIPT[name][0]
            if isinstance(step, dict) and "raise" in step:
                raise Exception(step["raise"])
            if callable(step):
                return step(**kwargs)
            return step
        return tool
    def __getattr__(self, name):
        return self[name]
tools = Tools()
`;
  return execFileSync("/usr/bin/python3", ["-c", `${fake}${helpers}\n${program}`], {
    encoding: "utf8",
  }).trim();
}

describe("pythonClientHelpers", () => {
  it("retries raised transient errors and error bodies, and returns the first good result", () => {
    const script = JSON.stringify({
      get_x: [{ raise: "HTTP 503: busy" }, { status: "error", error: "try later" }, { value: 7 }],
    });
    const out = runWithTools(pythonClientHelpers(), script, `print(call("get_x")["value"], len(LOG))`);
    expect(out).toBe("7 3");
  });

  it("raises at once on an error it is not told to retry, and names the last failure when attempts run out", () => {
    const script = JSON.stringify({
      bad: [{ raise: "HTTP 404: no such item" }],
      busy: [{ raise: "HTTP 429" }],
    });
    const program = `
for name in ("bad", "busy"):
    try:
        call(name)
    except Exception as error:
        print(name, str(error), len(LOG))`;
    expect(runWithTools(pythonClientHelpers({ attempts: 3 }), script, program).split("\n")).toEqual([
      "bad HTTP 404: no such item 1",
      "busy HTTP 429 2",
    ]);
    const patient = runWithTools(
      pythonClientHelpers({ attempts: 3, retryOn: ["503", "429"] }),
      script,
      `
try:
    call("busy")
except RuntimeError as error:
    print(error, len(LOG))`,
    );
    expect(patient).toBe("busy kept failing: HTTP 429 3");
  });

  it("treats every listed status as a failure and pages listings and the workspace to the end", () => {
    const pages = { page1: { rows: [1, 2], has_more: true }, page2: { rows: [3], has_more: false } };
    const script = JSON.stringify({
      list_rows: [{ status: "partial" }, pages.page1, pages.page2],
      list_files: [
        { files: [{ path: "b.md" }], has_more: true },
        { files: [{ path: "a.md" }], has_more: false },
      ],
    });
    const helpers = pythonClientHelpers({ errorStatuses: ["error", "partial"] });
    expect(runWithTools(helpers, script, `print(fetch("list_rows", "rows"), workspace_files("docs"))`)).toBe(
      "[1, 2, 3] ['a.md', 'b.md']",
    );
  });
});
