import { describe, expect, it } from "vitest";
import { buildSeccompFilter, seccompSupported } from "./seccomp.js";

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;

/** Runs a classic-BPF seccomp program over one `struct seccomp_data` (the subset of BPF the filter uses). */
function evaluate(program: Buffer, data: { nr: number; arch: number; arg0?: number }): number {
  const input = Buffer.alloc(64);
  input.writeUInt32LE(data.nr >>> 0, 0);
  input.writeUInt32LE(data.arch >>> 0, 4);
  input.writeUInt32LE((data.arg0 ?? 0) >>> 0, 16);
  let accumulator = 0;
  let pc = 0;
  for (let steps = 0; steps < 1000; steps += 1) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) {
      accumulator = input.readUInt32LE(k);
      pc += 1;
    } else if (code === 0x15) pc += 1 + (accumulator === k ? jt : jf);
    else if (code === 0x35) pc += 1 + (accumulator >= k ? jt : jf);
    else if (code === 0x45) pc += 1 + ((accumulator & k) !== 0 ? jt : jf);
    else if (code === 0x06) return k;
    else throw new Error(`unexpected BPF opcode ${code}`);
    if (pc * 8 >= program.length) throw new Error("ran off the end of the program");
  }
  throw new Error("the program did not return");
}

const X86_64 = 0xc000003e;
const AARCH64 = 0xc00000b7;
const CLONE_NEWUSER = 0x10000000;
const CLONE_THREAD_FLAGS = 0x3d0f00; // what glibc's pthread_create passes

describe("seccomp filter", () => {
  it("x86_64: refuses nested user namespaces, io_uring, ptrace, bpf and keys; allows ordinary calls", () => {
    const filter = buildSeccompFilter("x64");
    expect(filter.length % 8).toBe(0);
    const run = (nr: number, arg0 = 0): number => evaluate(filter, { nr, arch: X86_64, arg0 });
    expect(run(272, CLONE_NEWUSER)).toBe(EPERM); // unshare(CLONE_NEWUSER)
    expect(run(272, 0x00020000)).toBe(ALLOW); // unshare(CLONE_NEWNS) alone: the kernel refuses it without caps
    expect(run(56, CLONE_NEWUSER | 0x11)).toBe(EPERM); // clone with CLONE_NEWUSER
    expect(run(56, CLONE_THREAD_FLAGS)).toBe(ALLOW); // a thread
    expect(run(56, 0x01200011)).toBe(ALLOW); // fork()
    expect(run(435)).toBe(ENOSYS); // clone3: glibc falls back to clone
    for (const nr of [
      425, 426, 427, 101, 310, 311, 250, 248, 249, 321, 298, 323, 246, 320, 175, 313, 165, 169,
    ])
      expect(run(nr), `syscall ${nr}`).toBe(EPERM);
    for (const nr of [0, 1, 2, 3, 9, 57, 59, 61, 202, 231, 257, 262, 318, 334, 436])
      expect(run(nr), `syscall ${nr}`).toBe(ALLOW);
    expect(run(0x40000000 + 1)).toBe(ENOSYS); // x32 write
    expect(evaluate(filter, { nr: 4, arch: 0x40000003 })).toBe(ENOSYS); // i386 ABI
  });

  it("aarch64: the same policy with the generic system-call numbers", () => {
    const filter = buildSeccompFilter("arm64");
    const run = (nr: number, arg0 = 0): number => evaluate(filter, { nr, arch: AARCH64, arg0 });
    expect(run(97, CLONE_NEWUSER)).toBe(EPERM); // unshare
    expect(run(220, CLONE_NEWUSER)).toBe(EPERM); // clone
    expect(run(220, CLONE_THREAD_FLAGS)).toBe(ALLOW);
    expect(run(435)).toBe(ENOSYS);
    for (const nr of [425, 117, 270, 219, 280, 241, 282, 105, 40])
      expect(run(nr), `syscall ${nr}`).toBe(EPERM);
    for (const nr of [63, 64, 56, 221, 93, 94, 222]) expect(run(nr), `syscall ${nr}`).toBe(ALLOW);
    expect(evaluate(filter, { nr: 4, arch: 0x40000028 })).toBe(ENOSYS); // arm32 compat
  });

  it("names the supported architectures for any other one", () => {
    expect(seccompSupported("x64")).toBe(true);
    expect(seccompSupported("riscv64")).toBe(false);
    expect(() => buildSeccompFilter("riscv64")).toThrow(/x64, arm64/);
  });
});
