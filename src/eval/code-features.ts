import { spawn } from "node:child_process";
import { ProgAgentError, deadlineSignal, tryParseJson } from "../core/index.js";

/** The structure of one program the model wrote, as Python's own parser sees it. */
export interface CodeFeatures {
  /** False for a block Python cannot parse; every other field is then false or 0. */
  parses: boolean;
  /** `for`, `while` or a comprehension / generator expression. */
  hasLoop: boolean;
  /** `if`, a conditional expression, `match`, or a comprehension filter. */
  hasConditional: boolean;
  /** A `try` with at least one `except` handler. */
  hasTryExcept: boolean;
  /** Calls of the form `tools["name"](...)` or `tools.name(...)`. */
  toolCallCount: number;
  /** Calls of `print(...)` or `pprint(...)`. */
  printCount: number;
  /**
   * A program that only wraps one direct tool call: exactly one tool call, no loop, conditional or
   * `try`, and the raw result reaches the context whole (printed, possibly through `json.dumps`,
   * `str`, `repr` or `pprint`, or left as the trailing expression the kernel shows).
   */
  dtcLike: boolean;
}

/** Error code when the Python parser process fails (not when a block fails to parse: that is data). */
export const CODE_ANALYSIS_FAILED = "CODE_ANALYSIS_FAILED";

const PYTHON_PATH = "/usr/bin/python3";
const DEFAULT_TIMEOUT_MS = 30_000;

const NOT_PARSED: CodeFeatures = {
  parses: false,
  hasLoop: false,
  hasConditional: false,
  hasTryExcept: false,
  toolCallCount: 0,
  printCount: 0,
  dtcLike: false,
};

// Runs in `python3 -I`: reads a JSON list of sources on stdin, writes a JSON list of features on stdout.
// It only calls ast.parse; the code is never compiled to bytecode or executed.
const ANALYZER_SCRIPT = String.raw`
import ast, json, sys, warnings
warnings.simplefilter("ignore")

LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
CONDITIONALS = (ast.If, ast.IfExp) + ((ast.Match,) if hasattr(ast, "Match") else ())
TRIES = (ast.Try,) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
# Methods of the tools object itself, not tools.
TOOLS_OWN_METHODS = {"keys"}
# Calls that pass their first argument through whole into printed text.
WHOLE_WRAPPERS = {"str", "repr", "dumps", "pformat"}
PRINTERS = {"print", "pprint"}

def callee_name(func):
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None

def unwrap(node):
    return node.value if isinstance(node, ast.Await) else node

def is_tool_call(node):
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "tools":
        return func.attr not in TOOLS_OWN_METHODS
    return isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and func.value.id == "tools"

def is_print(node):
    return isinstance(node, ast.Call) and callee_name(node.func) in PRINTERS

def shows_whole(node, call, names):
    node = unwrap(node)
    if node is call:
        return True
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Call) and callee_name(node.func) in WHOLE_WRAPPERS and node.args:
        return shows_whole(node.args[0], call, names)
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(part, ast.FormattedValue) and shows_whole(part.value, call, names) for part in node.values)
    return False

def result_shown_whole(tree, call):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and unwrap(node.value) is call:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(target.id for target in targets if isinstance(target, ast.Name))
    for node in ast.walk(tree):
        if is_print(node) and any(shows_whole(argument, call, names) for argument in node.args):
            return True
    last = tree.body[-1] if tree.body else None
    return isinstance(last, ast.Expr) and shows_whole(last.value, call, names)

def analyze(code):
    try:
        tree = ast.parse(code)
        nodes = list(ast.walk(tree))
    except BaseException:
        return None
    tool_calls = [node for node in nodes if is_tool_call(node)]
    has_loop = any(isinstance(node, LOOPS) for node in nodes)
    has_conditional = any(
        isinstance(node, CONDITIONALS) or (isinstance(node, ast.comprehension) and node.ifs) for node in nodes
    )
    has_try = any(isinstance(node, TRIES) and node.handlers for node in nodes)
    dtc_like = (
        len(tool_calls) == 1
        and not has_loop
        and not has_conditional
        and not has_try
        and result_shown_whole(tree, tool_calls[0])
    )
    return {
        "parses": True,
        "hasLoop": has_loop,
        "hasConditional": bool(has_conditional),
        "hasTryExcept": has_try,
        "toolCallCount": len(tool_calls),
        "printCount": sum(1 for node in nodes if is_print(node)),
        "dtcLike": bool(dtc_like),
    }

sys.setrecursionlimit(10000)
codes = json.load(sys.stdin)
json.dump([analyze(code) for code in codes], sys.stdout)
`;

/**
 * Parses each program with Python's `ast` (in one `python3 -I` process for the whole batch; nothing is
 * executed) and reports its control flow, tool calls and printing.
 *
 * @param codes - Python sources, in any order; the result has the same order and length.
 * @param options - `timeoutMs` (default 30 s) and `signal` bound the parser process.
 * @throws ProgAgentError `CODE_ANALYSIS_FAILED` when python3 is missing, fails or does not answer in time.
 */
export async function analyzeCodeBlocks(
  codes: string[],
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<CodeFeatures[]> {
  // RL rollouts repeat the same program often; parse each distinct source once.
  const distinct = [...new Set(codes)];
  if (distinct.length === 0) return [];
  const output = await runAnalyzer(distinct, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal);
  const parsed = tryParseJson(output);
  if (!parsed.ok || !Array.isArray(parsed.value) || parsed.value.length !== distinct.length) {
    throw analysisError(`the Python code analyzer returned malformed output: ${output.slice(0, 200)}`);
  }
  const byCode = new Map<string, CodeFeatures>();
  distinct.forEach((code, index) => {
    const features = (parsed.value as unknown[])[index];
    byCode.set(
      code,
      features === null || typeof features !== "object" ? NOT_PARSED : (features as CodeFeatures),
    );
  });
  return codes.map((code) => ({ ...(byCode.get(code) ?? NOT_PARSED) }));
}

function runAnalyzer(codes: string[], timeoutMs: number, parent?: AbortSignal): Promise<string> {
  const signal = deadlineSignal(timeoutMs, parent);
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON_PATH, ["-I", "-c", ANALYZER_SCRIPT], {
      stdio: ["pipe", "pipe", "pipe"],
      signal,
      killSignal: "SIGKILL",
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    // The child may die before reading all of stdin; that failure is reported by "close" instead.
    child.stdin.on("error", () => undefined);
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        reject(
          analysisError(`${PYTHON_PATH} was not found; install python3 (apt-get install -y python3)`, error),
        );
      } else if (signal.aborted) {
        const timedOut = parent?.aborted !== true;
        reject(
          analysisError(
            timedOut
              ? `the Python code analyzer did not finish within ${timeoutMs} ms (${codes.length} blocks)`
              : "the Python code analyzer was aborted",
            error,
          ),
        );
      } else {
        reject(analysisError(`the Python code analyzer could not run: ${error.message}`, error));
      }
    });
    child.on("close", (exitCode) => {
      if (signal.aborted) return;
      if (exitCode !== 0) {
        const message = Buffer.concat(stderr).toString("utf8").trim().split("\n").slice(-3).join(" ");
        reject(analysisError(`the Python code analyzer exited with code ${exitCode}: ${message}`));
        return;
      }
      resolve(Buffer.concat(stdout).toString("utf8"));
    });
    child.stdin.end(JSON.stringify(codes));
  });
}

function analysisError(message: string, cause?: unknown): ProgAgentError {
  return new ProgAgentError(message, { code: CODE_ANALYSIS_FAILED, category: "system", cause });
}
