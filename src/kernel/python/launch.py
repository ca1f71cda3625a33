"""Host-side launcher for a kernel on a root host (runs as root, before any model code, standard library only).

    launch.py <workspace> <dev:ino> <stage> <uid> <gid> <executable> [args...]   mount, drop, exec
    launch.py --probe <workspace>                                      only check that the mount can be made
    launch.py --setid-filter-only <executable> [args...]              no mount (root host without idmapped
                                                                       mounts): only the set-id filter, exec
    launch.py --exec <executable> [args...]                           nothing but the exec
Any of them may start with `--rlimit <name>=<value>` options (cpu, fsize, nofile): limits set before anything
else, inherited by everything the executable starts (synth's draft sandbox: its CPU time per process).

In a private mount namespace of its own it clones the workspace directory as a detached mount, idmaps it so
that the directory owner's uid/gid on disk appear as the kernel's uid/gid (and files the kernel creates are
stored as the owner's), attaches it at <stage>, drops to the kernel's uid/gid and execs bwrap, which binds
<stage> at /workspace. Nothing on disk is chowned or chmodded; the mount exists only in this namespace and
disappears with the sandbox.

Kernels are started by spawner.py, which imports this module and runs prepare_idmapped() or
install_setid_filter() in its forked child before the exec; the host runs this file itself only for --probe.
"""

import ctypes
import os
import struct
import sys

SYS_OPEN_TREE = 428
SYS_MOVE_MOUNT = 429
SYS_MOUNT_SETATTR = 442
AT_FDCWD = -100
AT_EMPTY_PATH = 0x1000
OPEN_TREE_CLONE = 1
OPEN_TREE_CLOEXEC = os.O_CLOEXEC
MOVE_MOUNT_F_EMPTY_PATH = 0x4
MOUNT_ATTR_IDMAP = 0x00100000
MOUNT_ATTR_NOSUID = 0x2
MOUNT_ATTR_NODEV = 0x4
CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
EXIT_FAILED = 125
PR_SET_NO_NEW_PRIVS = 38
PR_SET_PDEATHSIG = 1
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
EPERM = 1
ENOSYS = 38
SETID_BITS = 0o6000
X32_SYSCALL_BIT = 0x40000000

# System calls that take a file mode, with the index of the mode argument; openat2 hides its mode in a struct.
MODE_SYSCALLS = {
    "x86_64": (0xC000003E, {90: 1, 91: 1, 268: 2, 452: 2, 85: 1, 2: 2, 257: 3, 133: 1, 259: 2}, [437]),
    "aarch64": (0xC00000B7, {52: 1, 53: 2, 452: 2, 56: 3, 33: 2}, [437]),
}

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]


def bind_to_host(argv):
    """For a helper process of the host (spawner, workspace meter), called with its arguments `<host pid>`:
    dies with the host (parent-death signal; ends now if the host died before it was armed) and leaves a
    terminal's Ctrl-C to the host."""
    import signal

    host = int(argv[0]) if argv else os.getppid()
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != host:
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def fail(what, errno=None):
    reason = os.strerror(errno) if errno else ""
    sys.stderr.write(f"progagent launcher: {what}{': ' + reason if reason else ''}\n")
    sys.stderr.flush()
    os._exit(EXIT_FAILED)


def checked(result, what):
    if result < 0:
        fail(what, ctypes.get_errno())
    return result


def user_namespace(disk_uid, kernel_uid, disk_gid, kernel_gid):
    """A user namespace whose uid/gid map sends the owner's ids on disk to the kernel's ids; returns its fd."""
    ready_read, ready_write = os.pipe()
    done_read, done_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(ready_read)
        os.close(done_write)
        status = 0 if libc.unshare(CLONE_NEWUSER) == 0 else 1
        os.write(ready_write, b"1" if status == 0 else b"0")
        os.read(done_read, 1)
        os._exit(status)
    os.close(ready_write)
    os.close(done_read)
    try:
        if os.read(ready_read, 1) != b"1":
            fail("cannot create a user namespace for the workspace mount")
        with open(f"/proc/{pid}/uid_map", "w") as uid_map:
            uid_map.write(f"{disk_uid} {kernel_uid} 1\n")
        with open(f"/proc/{pid}/gid_map", "w") as gid_map:
            gid_map.write(f"{disk_gid} {kernel_gid} 1\n")
        return os.open(f"/proc/{pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        os.write(done_write, b"1")
        os.close(done_write)
        os.close(ready_read)
        os.waitpid(pid, 0)


def idmapped_tree(workspace, kernel_uid, kernel_gid, expected=None):
    """A detached, idmapped, nosuid/nodev clone of the workspace directory (not of mounts below it).

    `expected` ("dev:ino") is the directory the kernel was created for: a restart never follows a link that
    was swapped in on the way to it since.
    """
    try:
        directory = os.open(workspace, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as error:
        fail(f"cannot open the workspace {workspace!r}", error.errno)
    owner = os.fstat(directory)
    if expected is not None and f"{owner.st_dev}:{owner.st_ino}" != expected:
        fail(f"the workspace {workspace!r} is no longer the directory the kernel was created for")
    tree = checked(
        libc.syscall(SYS_OPEN_TREE, directory, b"", AT_EMPTY_PATH | OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC),
        "open_tree of the workspace",
    )
    os.close(directory)
    namespace = user_namespace(owner.st_uid, kernel_uid, owner.st_gid, kernel_gid)
    attributes = struct.pack("QQQQ", MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0, 0, namespace)
    buffer = ctypes.create_string_buffer(attributes, len(attributes))
    checked(
        libc.syscall(SYS_MOUNT_SETATTR, tree, b"", AT_EMPTY_PATH, buffer, ctypes.c_size_t(len(attributes))),
        "idmapped mount of the workspace (mount_setattr)",
    )
    os.close(namespace)
    return tree


def setid_filter():
    """A seccomp filter refusing set-user-ID and set-group-ID modes (chmod, open, mknod and their variants).

    Files the program creates are stored as the workspace owner's; without this a program could leave a
    set-user-ID-root executable in a directory other host users can reach. Foreign ABIs get ENOSYS.
    """
    machine = os.uname().machine
    if machine not in MODE_SYSCALLS:
        return None
    arch, mode_arguments, refused = MODE_SYSCALLS[machine]
    ld, jeq, jset, ret = 0x20, 0x15, 0x45, 0x06
    program = [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, SECCOMP_RET_ERRNO | ENOSYS), (ld, 0, 0, 0)]
    if machine == "x86_64":
        program += [(jset, 0, 1, X32_SYSCALL_BIT), (ret, 0, 0, SECCOMP_RET_ERRNO | ENOSYS)]
    for number in refused:
        program += [(jeq, 0, 1, number), (ret, 0, 0, SECCOMP_RET_ERRNO | ENOSYS)]
    for number, argument in mode_arguments.items():
        program += [
            (jeq, 0, 4, number),
            (ld, 0, 0, 16 + 8 * argument),
            (jset, 0, 1, SETID_BITS),
            (ret, 0, 0, SECCOMP_RET_ERRNO | EPERM),
            (ret, 0, 0, SECCOMP_RET_ALLOW),
        ]
    program.append((ret, 0, 0, SECCOMP_RET_ALLOW))
    return b"".join(struct.pack("HBBI", *instruction) for instruction in program), len(program)


_SETID_FILTER = setid_filter()  # built once: the spawner's forked children install it


def install_setid_filter():
    built = _SETID_FILTER
    if built is None:
        return
    code, count = built
    instructions = ctypes.create_string_buffer(code, len(code))
    fprog = struct.pack("HxxxxxxP", count, ctypes.addressof(instructions))
    buffer = ctypes.create_string_buffer(fprog, len(fprog))
    checked(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    checked(
        libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(buffer), 0, 0),
        "seccomp filter for set-id modes",
    )


def prepare_idmapped(workspace, expected, stage, uid, gid):
    """Mounts the workspace idmapped at <stage> in a private mount namespace, drops to uid/gid, loads the filter."""
    tree = idmapped_tree(workspace, uid, gid, expected)
    checked(libc.unshare(CLONE_NEWNS), "unshare of the mount namespace")
    checked(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "making mounts private")
    checked(
        libc.syscall(SYS_MOVE_MOUNT, tree, b"", AT_FDCWD, os.fsencode(stage), MOVE_MOUNT_F_EMPTY_PATH),
        "attaching the workspace mount",
    )
    os.close(tree)
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    install_setid_filter()


def run(argv):
    """Execs argv (PATH lookup); on failure says why on stderr and exits with EXIT_FAILED."""
    try:
        os.execvp(argv[0], argv)
    except OSError as error:
        fail(f"cannot run {argv[0]!r}", error.errno)


def apply_rlimits(argv):
    """Sets the leading `--rlimit name=value` options (cpu: the hard limit a few seconds above, so SIGXCPU comes
    first; the others soft = hard) and returns the arguments after them."""
    import resource

    names = {"cpu": resource.RLIMIT_CPU, "fsize": resource.RLIMIT_FSIZE, "nofile": resource.RLIMIT_NOFILE}
    while len(argv) >= 2 and argv[0] == "--rlimit":
        name, _, value = argv[1].partition("=")
        if name not in names or not value.isdigit():
            fail(f"--rlimit takes name=value with a name of {sorted(names)}, not {argv[1]!r}")
        limit = int(value)
        resource.setrlimit(names[name], (limit, limit + 5 if name == "cpu" else limit))
        argv = argv[2:]
    return argv


def main(argv):
    if argv and argv[0] == "--rlimit":
        argv = apply_rlimits(argv)
    if len(argv) >= 2 and argv[0] == "--exec":
        run(argv[1:])
    if len(argv) == 2 and argv[0] == "--probe":
        os.close(idmapped_tree(argv[1], 65534, 65534))
        return
    if len(argv) >= 2 and argv[0] == "--setid-filter-only":
        install_setid_filter()
        run(argv[1:])
    if len(argv) < 6:
        fail("usage: launch.py <workspace> <dev:ino> <stage> <uid> <gid> <executable> [args...]")
    prepare_idmapped(argv[0], argv[1], argv[2], int(argv[3]), int(argv[4]))
    run(argv[5:])


if __name__ == "__main__":
    main(sys.argv[1:])
