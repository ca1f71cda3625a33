/**
 * The kernel bootstrap compiled to bytecode once per interpreter and host process. A script given to Python
 * is compiled on every start and never cached; compiling bootstrap.py took about 5 ms of each kernel's
 * start (of about 17 ms in a burst of 512, issue 8). The sandbox runs the compiled file and still sees the
 * source at the same path, so tracebacks and `co_filename` are what they were.
 *
 * The file is written by the interpreter that runs the kernels (bytecode is specific to its version), next to
 * the host's copy of the source, in the host-owned bootstrap directory that is mounted read-only. When
 * compiling fails, kernels run the source as before and the reason is logged once.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { chmod } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createLogger } from "../core/index.js";

/** How long compiling may take before kernels fall back to the source. */
const COMPILE_TIMEOUT_MS = 15_000;

const COMPILE_PROGRAM = [
  "import py_compile, sys",
  "py_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile=sys.argv[3], doraise=True,",
  "                   invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)",
].join("\n");

const compiled = new Map<string, Promise<string | undefined>>();
const logger = createLogger();

/**
 * The compiled bootstrap for `interpreter`, or undefined when it could not be made (the caller runs the
 * source). `sourcePath` is the host's copy of bootstrap.py; `displayPath` the path the source has where the
 * kernel runs (its tracebacks name it).
 */
export function compiledBootstrap(
  interpreter: string,
  sourcePath: string,
  displayPath: string,
): Promise<string | undefined> {
  let resolved: string;
  try {
    resolved = realpathSync(interpreter);
  } catch {
    return Promise.resolve(undefined); // the start reports the missing interpreter itself
  }
  const key = `${resolved}\0${sourcePath}\0${displayPath}`;
  let pending = compiled.get(key);
  if (!pending) {
    const tag = createHash("sha256").update(key).digest("hex").slice(0, 16);
    const target = join(dirname(sourcePath), `bootstrap-${tag}.pyc`);
    pending = new Promise<string | undefined>((resolve) => {
      execFile(
        resolved,
        ["-I", "-S", "-c", COMPILE_PROGRAM, sourcePath, target, displayPath],
        { timeout: COMPILE_TIMEOUT_MS, env: {}, encoding: "utf8" },
        (error, _stdout, stderr) => {
          if (error) {
            // No Python error text: the interpreter is no Python at all (or died); its start reports that itself.
            if (!stderr.trim()) {
              resolve(undefined);
              return;
            }
            logger.warn(
              `could not compile the kernel bootstrap with ${resolved} (kernels run its source instead): ${stderr.trim().split("\n").pop()}`,
            );
            resolve(undefined);
            return;
          }
          chmod(target, 0o644).then(
            () => resolve(target),
            () => resolve(undefined),
          );
        },
      );
    });
    compiled.set(key, pending);
  }
  return pending;
}
