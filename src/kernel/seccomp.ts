/**
 * The seccomp filter bwrap loads before it executes the interpreter (`--seccomp FD`): a classic-BPF program,
 * assembled here so that no libseccomp is needed. It allows everything except what model code never needs
 * and what widens the kernel's attack surface: nested user namespaces, io_uring, ptrace and cross-process
 * memory access, the key store, eBPF, perf events, userfaultfd, module and kexec loading, mounts, clocks,
 * swap and reboot. Foreign system-call ABIs (x32, i386 on x86_64, arm32 compat on aarch64) get ENOSYS.
 */
import { ERROR_CODES, ProgAgentError } from "../core/index.js";

/** `struct seccomp_data` offsets. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** Low 32 bits of args[0] (both supported architectures are little-endian). */
const OFFSET_ARG0_LOW = 16;

const BPF_LD_W_ABS = 0x20;
const BPF_JMP_JEQ_K = 0x15;
const BPF_JMP_JGE_K = 0x35;
const BPF_JMP_JSET_K = 0x45;
const BPF_RET_K = 0x06;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

const CLONE_NEWUSER = 0x10000000;
const X32_SYSCALL_BIT = 0x40000000;

interface ArchitectureTable {
  /** AUDIT_ARCH_* value the kernel puts in seccomp_data.arch for the native ABI. */
  auditArch: number;
  /** Numbers at or above this belong to another ABI (x32). */
  foreignFrom?: number;
  syscalls: Record<string, number>;
}

/** System-call numbers from the kernel's uapi headers (asm/unistd_64.h, asm-generic/unistd.h). */
const ARCHITECTURES: Record<string, ArchitectureTable> = {
  x64: {
    auditArch: 0xc000003e,
    foreignFrom: X32_SYSCALL_BIT,
    syscalls: {
      clone: 56,
      clone3: 435,
      unshare: 272,
      setns: 308,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      ptrace: 101,
      process_vm_readv: 310,
      process_vm_writev: 311,
      process_madvise: 440,
      pidfd_getfd: 438,
      kcmp: 312,
      keyctl: 250,
      add_key: 248,
      request_key: 249,
      bpf: 321,
      perf_event_open: 298,
      userfaultfd: 323,
      kexec_load: 246,
      kexec_file_load: 320,
      init_module: 175,
      finit_module: 313,
      delete_module: 176,
      mount: 165,
      umount2: 166,
      pivot_root: 155,
      move_mount: 429,
      open_tree: 428,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      mount_setattr: 442,
      swapon: 167,
      swapoff: 168,
      reboot: 169,
      acct: 163,
      settimeofday: 164,
      clock_settime: 227,
      clock_adjtime: 305,
      adjtimex: 159,
      quotactl: 179,
      quotactl_fd: 443,
      lookup_dcookie: 212,
      open_by_handle_at: 304,
      name_to_handle_at: 303,
      fanotify_init: 300,
      syslog: 103,
      vhangup: 153,
      iopl: 172,
      ioperm: 173,
      uselib: 134,
      sysfs: 139,
      _sysctl: 156,
      nfsservctl: 180,
    },
  },
  arm64: {
    auditArch: 0xc00000b7,
    syscalls: {
      clone: 220,
      clone3: 435,
      unshare: 97,
      setns: 268,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      ptrace: 117,
      process_vm_readv: 270,
      process_vm_writev: 271,
      process_madvise: 440,
      pidfd_getfd: 438,
      kcmp: 272,
      keyctl: 219,
      add_key: 217,
      request_key: 218,
      bpf: 280,
      perf_event_open: 241,
      userfaultfd: 282,
      kexec_load: 104,
      kexec_file_load: 294,
      init_module: 105,
      finit_module: 273,
      delete_module: 106,
      mount: 40,
      umount2: 39,
      pivot_root: 41,
      move_mount: 429,
      open_tree: 428,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      mount_setattr: 442,
      swapon: 224,
      swapoff: 225,
      reboot: 142,
      acct: 89,
      settimeofday: 170,
      clock_settime: 112,
      clock_adjtime: 266,
      adjtimex: 171,
      quotactl: 60,
      quotactl_fd: 443,
      lookup_dcookie: 18,
      open_by_handle_at: 265,
      name_to_handle_at: 264,
      fanotify_init: 262,
      syslog: 116,
      vhangup: 58,
      nfsservctl: 42,
    },
  },
};

/** Refused with EPERM whatever their arguments. Names missing from an architecture's table do not exist there. */
export const DENIED_SYSCALLS = [
  "setns",
  "io_uring_setup",
  "io_uring_enter",
  "io_uring_register",
  "ptrace",
  "process_vm_readv",
  "process_vm_writev",
  "process_madvise",
  "pidfd_getfd",
  "kcmp",
  "keyctl",
  "add_key",
  "request_key",
  "bpf",
  "perf_event_open",
  "userfaultfd",
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "mount",
  "umount2",
  "pivot_root",
  "move_mount",
  "open_tree",
  "fsopen",
  "fsconfig",
  "fsmount",
  "fspick",
  "mount_setattr",
  "swapon",
  "swapoff",
  "reboot",
  "acct",
  "settimeofday",
  "clock_settime",
  "clock_adjtime",
  "adjtimex",
  "quotactl",
  "quotactl_fd",
  "lookup_dcookie",
  "open_by_handle_at",
  "name_to_handle_at",
  "fanotify_init",
  "syslog",
  "vhangup",
  "iopl",
  "ioperm",
  "uselib",
  "sysfs",
  "_sysctl",
  "nfsservctl",
] as const;

type Operand = number | { label: string };
interface Instruction {
  code: number;
  k: number;
  /** Jump targets (conditional jumps only): a label, or 0 for the next instruction. */
  whenTrue?: Operand;
  whenFalse?: Operand;
}

/** A tiny classic-BPF assembler: instructions with symbolic jump targets, resolved to 8-bit offsets. */
class BpfProgram {
  private readonly instructions: Instruction[] = [];
  private readonly labels = new Map<string, number>();

  load(offset: number): this {
    this.instructions.push({ code: BPF_LD_W_ABS, k: offset });
    return this;
  }

  jump(code: number, k: number, whenTrue: Operand, whenFalse: Operand = 0): this {
    this.instructions.push({ code, k, whenTrue, whenFalse });
    return this;
  }

  ret(value: number): this {
    this.instructions.push({ code: BPF_RET_K, k: value });
    return this;
  }

  label(name: string): this {
    if (this.labels.has(name)) throw new Error(`BPF label '${name}' defined twice`);
    this.labels.set(name, this.instructions.length);
    return this;
  }

  assemble(): Buffer {
    const output = Buffer.alloc(this.instructions.length * 8);
    this.instructions.forEach((instruction, index) => {
      const offset = (operand: Operand | undefined): number => {
        if (operand === undefined) return 0;
        if (typeof operand === "number") return operand;
        const target = this.labels.get(operand.label);
        if (target === undefined) throw new Error(`BPF label '${operand.label}' is not defined`);
        const distance = target - index - 1;
        if (distance < 0 || distance > 255) throw new Error(`BPF jump to '${operand.label}' out of range`);
        return distance;
      };
      output.writeUInt16LE(instruction.code, index * 8);
      output.writeUInt8(offset(instruction.whenTrue), index * 8 + 2);
      output.writeUInt8(offset(instruction.whenFalse), index * 8 + 3);
      output.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
    });
    return output;
  }
}

/** Whether a filter exists for this architecture (Node's `process.arch` names). */
export function seccompSupported(architecture: string = process.arch): boolean {
  return architecture in ARCHITECTURES;
}

/**
 * The compiled filter (an array of `struct sock_filter`, host byte order) for `architecture`
 * (`process.arch` names: x64, arm64).
 */
export function buildSeccompFilter(architecture: string = process.arch): Buffer {
  const table = ARCHITECTURES[architecture];
  if (!table) {
    throw new ProgAgentError(
      `No seccomp filter for the architecture '${architecture}' (supported: ${Object.keys(ARCHITECTURES).join(", ")}).`,
      { code: ERROR_CODES.SANDBOX_UNAVAILABLE, category: "system" },
    );
  }
  const number = (name: string): number | undefined => table.syscalls[name];
  const program = new BpfProgram();
  program.load(OFFSET_ARCH).jump(BPF_JMP_JEQ_K, table.auditArch, 0, { label: "foreign" });
  program.load(OFFSET_NR);
  if (table.foreignFrom !== undefined) program.jump(BPF_JMP_JGE_K, table.foreignFrom, { label: "foreign" });
  // clone3 passes its flags in memory a filter cannot read: ENOSYS makes glibc fall back to clone.
  program.jump(BPF_JMP_JEQ_K, number("clone3")!, { label: "enosys" });
  program.jump(BPF_JMP_JEQ_K, number("clone")!, { label: "flags" });
  program.jump(BPF_JMP_JEQ_K, number("unshare")!, { label: "flags" });
  for (const name of DENIED_SYSCALLS) {
    const value = number(name);
    if (value !== undefined) program.jump(BPF_JMP_JEQ_K, value, { label: "eperm" });
  }
  program.ret(SECCOMP_RET_ALLOW);
  // clone and unshare: both take their flags in the first argument on x86_64 and aarch64.
  program.label("flags").load(OFFSET_ARG0_LOW).jump(BPF_JMP_JSET_K, CLONE_NEWUSER, { label: "eperm" });
  program.ret(SECCOMP_RET_ALLOW);
  program.label("eperm").ret(SECCOMP_RET_ERRNO | EPERM);
  program.label("enosys").ret(SECCOMP_RET_ERRNO | ENOSYS);
  program.label("foreign").ret(SECCOMP_RET_ERRNO | ENOSYS);
  return program.assemble();
}

let cachedFilter: Buffer | undefined;

/** The filter for this host, built once per process. */
export function hostSeccompFilter(): Buffer {
  cachedFilter ??= buildSeccompFilter();
  return cachedFilter;
}
