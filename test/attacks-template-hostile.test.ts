/**
 * H6 (attacks.md, second review; issue 30 item 10): a kernel the template launcher forked is a copy of the
 * template's interpreter, so whatever the template held was the program's to read: its frames below the
 * bootstrap's main (with the episode's request: the stage path, the workspace, the bwrap arguments), its globals
 * (the spawner's pid), the launcher module and the template's own code (the package's path). The probe walks
 * every object a program can reach (frames, modules, subclasses, gc's lists, the frozen generation too) and
 * looks for the host: the kernel's own directory, the host pid in names, the package's path, host pids as
 * numbers, code from outside the sandbox. A bwrap kernel, which is exec'd, is the reference.
 */
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createKernel, type Kernel, type KernelLauncher } from "../src/kernel/index.js";
import { spawnerPids } from "../src/kernel/spawner.js";
import { childrenOf, isSupervisor, templatePids } from "./helpers/processes.js";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Prints one JSON line: `frames` (name and whether its code is the sandbox's), `strings` and `bytes` holding a
 * marker, `code` objects from outside the sandbox, `pids` (holder type and pid) and `files` of /proc naming the
 * host. The markers come shifted by one byte value and the pids xored with a key, so that the probe's own code
 * holds neither. A planted string and a planted number prove that the walk finds what it looks for.
 */
const PROBE = String.raw`
import gc, json, sys

def _probe(needles, pid_key, hidden_pids):
    shift = bytes((value + 1) % 256 for value in range(256))
    needles = [bytes(needle) for needle in needles]
    pids = {value ^ pid_key for value in hidden_pids}
    sandbox = ("/usr/", "/run/progagent/", "<")
    report = {"frames": [], "strings": [], "code": [], "pids": [], "files": []}
    planted = {"text": "[" + bytes(needles[0]).translate(bytes((value - 1) % 256 for value in range(256))).decode() + "]", "pid": min(pids)}
    own = {id(pids), id(report), id(needles), id(shift)} | {id(value) for value in report.values()}

    def markers(data):
        data = bytes(data).translate(shift)
        return [index for index, needle in enumerate(needles) if needle in data]

    gc.unfreeze()
    roots = gc.get_objects() + [sys.modules, planted]
    frame = sys._getframe()
    own_frame = id(frame)
    while frame is not None:
        report["frames"].append([frame.f_code.co_name, frame.f_code.co_filename.startswith(sandbox)])
        roots.append(frame)
        frame = frame.f_back
    classes = [object]
    while classes:
        cls = classes.pop()
        roots.append(cls)
        try:
            classes.extend(type.__subclasses__(cls))
        except TypeError:
            pass
    seen = own | {own_frame, id(roots), id(classes)}
    queue = roots
    while queue:
        item = queue.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        kind = type(item)
        if kind is str or kind is bytes or kind is bytearray:
            found = markers(item.encode("utf-8", "surrogateescape") if kind is str else item)
            if found:
                label = "planted" if item is planted["text"] else kind.__name__
                report["strings"].append([label, found])
            continue
        if kind is type(_probe.__code__) and not item.co_filename.startswith(sandbox):
            report["code"].append(item.co_name)
        referents = gc.get_referents(item)
        # Numbers a program's state keeps (not constant tables: tuples, UPPER_CASE names), where a pid would be.
        if kind is dict:
            held = [value for key, value in list(item.items()) if not (type(key) is str and key.isupper())]
        elif kind in (list, set) or kind.__name__ in ("frame", "cell"):
            held = referents
        else:
            held = ()
        for value in held:
            if type(value) is int and value in pids:
                report["pids"].append("planted" if item is planted else "%s:%d" % (kind.__name__, value))
        queue.extend(value for value in referents if id(value) not in seen)
    for path in ("/proc/self/cmdline", "/proc/self/environ", "/proc/1/cmdline", "/proc/1/environ"):
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except PermissionError:
            continue  # the supervisor's environment is not the program's to read
        if markers(data):
            report["files"].append(path)
    return report

print(json.dumps(_probe(NEEDLES, PID_KEY, PIDS)))
`;

const PID_KEY = 0x2a5a5;

/** Host pids a kernel could learn: this process, the spawner, the template, the kernel's own processes. */
function hostPids(): number[] {
  const spawners = spawnerPids();
  const supervisors = spawners.flatMap((spawner) =>
    [spawner, ...childrenOf(spawner)].flatMap((pid) => [pid, ...childrenOf(pid)]),
  );
  const kernels = supervisors.filter(isSupervisor);
  return [
    ...new Set([process.pid, ...spawners, ...templatePids(), ...kernels, ...kernels.flatMap(childrenOf)]),
  ];
}

interface ProbeReport {
  frames: Array<[string, boolean]>;
  strings: Array<[string, number[]]>;
  code: string[];
  pids: string[];
  files: string[];
}

async function probe(kernel: Kernel, pids: number[]): Promise<ProbeReport> {
  const ownDir = dirname(dirname(kernel.workspaceDir));
  const markers = [ownDir, basename(ownDir), `progagent-${process.pid}-`, packageRoot];
  const shifted = markers.map((marker) => [...Buffer.from(marker)].map((byte) => (byte + 1) % 256));
  const code = PROBE.replace("NEEDLES", JSON.stringify(shifted))
    .replace("PID_KEY", String(PID_KEY))
    .replace("PIDS", JSON.stringify(pids.map((pid) => pid ^ PID_KEY)));
  const result = await kernel.execute(code, { timeoutMs: 120_000 });
  expect(result.status, result.text).toBe("ok");
  return JSON.parse(result.stdout) as ProbeReport;
}

describe.skipIf(process.getuid?.() !== 0)(
  "H6 a template-launched kernel sees nothing of the host in the interpreter's objects",
  () => {
    it("no host path, host pid or host code in its frames, objects, code or command line; as with bwrap", async () => {
      const kernels: Record<KernelLauncher, Kernel> = {
        bwrap: createKernel({ launcher: "bwrap", timeoutMs: 120_000 }),
        template: createKernel({ launcher: "template", timeoutMs: 120_000 }),
      };
      try {
        await Promise.all(Object.values(kernels).map((kernel) => kernel.start()));
        const pids = hostPids();
        const reference = await probe(kernels.bwrap, pids);
        const template = await probe(kernels.template, pids);
        expect(templatePids()).toHaveLength(1);
        for (const report of [reference, template]) {
          // The walk finds what is there: the planted marker and pid, and nothing else.
          expect(report.strings).toEqual([["planted", [0, 1, 2]]]); // the directory names the other two
          expect(report.pids).toContain("planted");
          expect(report.code).toEqual([]);
          expect(report.files).toEqual([]);
          expect(report.frames.filter(([, sandboxed]) => !sandboxed)).toEqual([]);
        }
        // A number a stdlib table holds by chance is in both; a host pid the template kept is not.
        expect(template.pids.filter((hit) => !reference.pids.includes(hit))).toEqual([]);
      } finally {
        await Promise.all(Object.values(kernels).map((kernel) => kernel.dispose()));
      }
    }, 300_000);
  },
);
