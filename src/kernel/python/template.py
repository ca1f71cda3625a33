"""Kernel template: a pristine interpreter that forks kernels instead of exec'ing bwrap and a new interpreter.

    python -c LOADER template.py   (LOADER: spawner.py's TEMPLATE_LOADER; control socket on fd 3; its first
                      message: the bootstrap's code file on the host, the bootstrap's path in the sandbox, the
                      interpreter and its flags, one a line)

One template per sandbox configuration (interpreter, flags, bootstrap, base environment), started by spawner.py
as root with the base environment the kernels get. At start it loads the bootstrap's code as `__main__`
(definitions only: bootstrap.py's import has no side effects) and then waits on its control socket. It holds
nothing of any episode: a request is one byte carrying a socket (SCM_RIGHTS), on which it forks. Only the
forked child (the kernel's first process) reads its episode's request from that socket: the bwrap argument
vector the host built, the launcher's steps, the seccomp filter and the kernel's descriptors.

The first process does the launcher's steps (launch.py: idmapped workspace, drop to the kernel's uid/gid, the
set-id filter), then what bwrap does with that argument vector up to its clone (bubblewrap.c: no_new_privs,
the namespaces, the first user namespace's maps), forks the sandbox's PID 1, tells the spawner its pid and
exits, so that PID 1 is reparented to the spawner (a child subreaper) and never is the template's child.
PID 1 does the rest of bwrap's work (loopback, the tmpfs root and the two pivots, the binds, /proc, /dev, the
second user namespace, capabilities, the session, the parent-death signal, the seccomp filter), makes the
interpreter look exec'd (environment, command line and environment block, sys.modules) and unwinds to the
loader, which runs the bootstrap's main(). Anything it cannot do exactly ends the start with a message on the
kernel's stderr (exit code 125), as launch.py does.

Why the loader and the unwinding (attacks.md H6): a forked kernel is a copy of this interpreter, and a program can
read whatever it holds. So nothing the template keeps names the host: the loader (`python -c`, whose frame names
no host file) compiles this file without its path, configure() gives the launcher's module and code no path
either and drops the import cache entry of their directory, and sys.argv is the bootstrap's. What is the kernel's
own (its request with the stage path, the workspace and the bwrap arguments, in the frames below main(); the
spawner's pid in _CONFIG) goes in its PID 1: it deletes the pid and raises SystemExit(main) once it is ready,
which unwinds every frame of the template to the loader, which calls main() there. That touches a few pages
per kernel; emptying the template's and the launcher's globals in each kernel instead (tried first) freed their
objects, copying the shared pages they are on: milliseconds of each start on a busy machine.
"""

import marshal
import posix
import sys

BOOTSTRAP_NAME = "__progagent_template_bootstrap__"


def fsencode(text):
    return text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape")


def fsdecode(data):
    return data if isinstance(data, str) else data.decode("utf-8", "surrogateescape")


def _load_bootstrap(code_path, script):
    """Runs the bootstrap's module code (definitions only) as the `__main__` of a freshly started script."""
    with open(code_path, "rb") as handle:
        data = handle.read()
    external = sys.modules["_frozen_importlib_external"]
    if code_path.endswith(".pyc"):
        if data[:4] != external.MAGIC_NUMBER:
            raise ValueError("%s was not compiled by this interpreter" % code_path)
        code = marshal.loads(data[16:])
        loader_name = "SourcelessFileLoader"
    else:
        code = compile(data, script, "exec", dont_inherit=True)
        loader_name = "SourceFileLoader"
    module = type(sys)("__main__")
    namespace = module.__dict__
    namespace.update(
        {
            "__name__": BOOTSTRAP_NAME,  # not "__main__" while it runs: its main() is the kernel's, not ours
            "__builtins__": sys.modules["builtins"],
            "__file__": script,
            "__cached__": None,
            "__loader__": getattr(external, loader_name)("__main__", script),
        }
    )
    exec(code, namespace)
    namespace["__name__"] = "__main__"
    sys.modules["__main__"] = module
    return module


# Filled by main() before anything else is imported (the kernel's sys.modules is the interpreter's plus the
# bootstrap's, as when the interpreter runs the bootstrap itself).
_BOOTSTRAP = None
_KERNEL_MODULES = None
_CONFIG = None


def _imports(directory):
    global binascii, ctypes, struct, fcntl, _socket, launch, realpath
    sys.path.insert(0, directory)
    try:
        # Imported here, once, not in each kernel's first process: binascii alone was 0.37 ms of each start.
        import binascii
        import ctypes
        import fcntl
        import struct
        import _socket
        import launch
        from os.path import realpath
    finally:
        sys.path.pop(0)
        sys.path_importer_cache.pop(directory, None)
    # The kernel's command line and environment block live in memory no Python object holds (set_command_line).
    launch.libc.malloc.restype = ctypes.c_void_p
    launch.libc.malloc.argtypes = [ctypes.c_size_t]
    # Neither the launcher's module nor its code names the package's path (this file's is compiled without it).
    for name in ("__file__", "__cached__", "__spec__", "__loader__"):
        vars(launch)[name] = None
    for value in vars(launch).values():
        if type(value) is type(_imports):
            value.__code__ = _renamed(value.__code__, "<progagent launcher>")


def _renamed(code, filename):
    constants = tuple(_renamed(value, filename) if type(value) is type(code) else value for value in code.co_consts)
    return code.replace(co_filename=filename, co_consts=constants)


CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_REC = 16384
MS_SILENT = 32768
MS_PRIVATE = 1 << 18
MS_SLAVE = 1 << 19
MS_RELATIME = 1 << 21
MS_MGC_VAL = 0xC0ED0000
MOUNT_ATTR_RDONLY = 0x1
MOUNT_ATTR_NOSUID = 0x2
MOUNT_ATTR_NODEV = 0x4
AT_FDCWD = -100
AT_SYMLINK_NOFOLLOW = 0x100
AT_RECURSIVE = 0x8000
MNT_DETACH = 2
MOUNT_OPTION_FLAGS = {
    "rw": 0,
    "ro": MS_RDONLY,
    "nosuid": MS_NOSUID,
    "nodev": MS_NODEV,
    "noexec": MS_NOEXEC,
    "noatime": MS_NOATIME,
    "nodiratime": MS_NODIRATIME,
    "relatime": MS_RELATIME,
}
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_CAPBSET_DROP = 24
PR_SET_MM = 35
PR_SET_MM_MAP = 14
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2
SIGKILL = 9
SIGCHLD = 17
EXIT_FAILED = 125
SYSCALLS = {
    "x86_64": {"capset": 126, "pivot_root": 155, "brk": 12},
    "aarch64": {"capset": 91, "pivot_root": 41, "brk": 214},
}
# The sandbox options of buildSandboxCommand (sandbox.ts) the template implements, with their argument counts.
OPTIONS = {
    "--unshare-all": 0,
    "--die-with-parent": 0,
    "--new-session": 0,
    "--as-pid-1": 0,
    "--clearenv": 0,
    "--hostname": 1,
    "--ro-bind": 2,
    "--bind": 2,
    "--symlink": 2,
    "--tmpfs": 1,
    "--size": 1,
    "--proc": 1,
    "--dev": 1,
    "--chdir": 1,
    "--remount-ro": 1,
    "--seccomp": 1,
    "--info-fd": 1,
    "--setenv": 2,
}
REQUIRED_OPTIONS = ("--unshare-all", "--die-with-parent", "--new-session", "--as-pid-1", "--clearenv")


def fail(what, errno=None):
    launch.fail(what, errno)


def checked(result, what):
    if result < 0:
        fail(what, ctypes.get_errno())
    return result


def call(name, *arguments):
    return checked(getattr(launch.libc, name)(*arguments), name)


def syscall(name, *arguments):
    number = SYSCALLS[posix.uname().machine][name]
    return checked(launch.libc.syscall(number, *arguments), name)


def mount(source, target, fstype, flags, data=None):
    encode = lambda value: None if value is None else fsencode(value)  # noqa: E731
    result = launch.libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data))
    if result < 0:
        fail("cannot mount %s on %s" % (fstype or source, target), ctypes.get_errno())


# --- the template process -------------------------------------------------------------------------------------


def serve():
    """Forks on each request; never returns (exits when the spawner closes the control socket)."""
    control = _socket.socket(fileno=3)
    space = _socket.CMSG_SPACE(4)
    children = 0
    while True:
        children -= reap()
        # While a first process is alive, wake up now and then to reap it (it lives a millisecond or two).
        control.settimeout(0.02 if children > 0 else None)
        try:
            data, ancillary, _flags, _address = control.recvmsg(1, space)
        except (InterruptedError, TimeoutError):
            continue
        if not data:
            # Retired or the spawner is gone: the first processes still running finish first.
            while children > 0:
                try:
                    posix.waitpid(-1, 0)
                except ChildProcessError:
                    break
                except InterruptedError:
                    continue
                children -= 1
            posix._exit(0)
        fds = received_fds(ancillary)
        if len(fds) != 1:
            for fd in fds:
                posix.close(fd)
            continue
        pid = posix.fork()
        if pid == 0:
            control.close()
            first_process(fds[0])
        children += 1
        posix.close(fds[0])


def reap():
    """The first processes end as soon as they have forked their sandbox's PID 1. Returns how many were reaped."""
    reaped = 0
    while True:
        try:
            pid, _status = posix.waitpid(-1, posix.WNOHANG)
        except ChildProcessError:
            return reaped
        if pid == 0:
            return reaped
        reaped += 1


def received_fds(ancillary):
    fds = []
    for level, kind, data in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            usable = len(data) - len(data) % 4
            fds += [int.from_bytes(data[i : i + 4], sys.byteorder) for i in range(0, usable, 4)]
    return fds


# --- the kernel's first process ----------------------------------------------------------------------------------


def first_process(channel):
    """Reads its episode's request, makes the namespaces, forks the sandbox's PID 1, says its pid, exits."""
    try:
        sock = _socket.socket(fileno=channel)
        request, fds = receive_request(sock)
        sock = layout_descriptors(fds, sock)
    except BaseException as error:  # noqa: BLE001 - before the kernel's stderr exists nothing else can say why
        try:
            sys.stderr.write("progagent template: cannot receive the kernel's request: %r\n" % (error,))
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        posix._exit(EXIT_FAILED)
    try:
        start_kernel(request, sock)
    except SystemExit:
        raise
    except BaseException as error:  # noqa: BLE001
        fail("cannot start the kernel: %r" % (error,))
    posix._exit(EXIT_FAILED)


def receive_request(sock):
    space = _socket.CMSG_SPACE(4 * 5)
    data, ancillary, flags, _address = sock.recvmsg(1 << 20, space)
    fds = received_fds(ancillary)
    if len(fds) != 5 or not data or flags & (_socket.MSG_TRUNC | _socket.MSG_CTRUNC):
        raise ValueError(
            "expected one request with 5 descriptors, got %d bytes and %d descriptors" % (len(data), len(fds))
        )
    # The bootstrap's own JSON reader (loaded before any request): importing json here would reach the kernel.
    return _BOOTSTRAP._json_loads(data.decode("utf-8")), fds


def layout_descriptors(fds, sock):
    """0 /dev/null, 1 and 2 the output files, 3 and 4 the protocol pipes, the request socket parked above; nothing
    else open. Everything is parked first, so that moving one into place never clobbers another."""
    high = fcntl.fcntl(sock.fileno(), fcntl.F_DUPFD_CLOEXEC, 100)
    parked = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 64) for fd in fds]
    sock.close()
    for fd in fds:
        posix.close(fd)
    for index, fd in enumerate(parked):
        posix.dup2(fd, index)
    posix.closerange(5, high)
    posix.closerange(high + 1, posix.sysconf("SC_OPEN_MAX"))
    return _socket.socket(fileno=high)


def parse_arguments(argv):
    """The bwrap argument vector (without the bwrap path): (options set, ops, environment, chdir, command)."""
    seen = set()
    ops = []
    environment = []
    chdir = None
    size = 0
    index = 0
    while index < len(argv):
        option = argv[index]
        if option == "--":
            command = argv[index + 1 :]
            break
        if option not in OPTIONS:
            fail("unsupported sandbox option %r (the template implements buildSandboxCommand's options)" % option)
        count = OPTIONS[option]
        values = argv[index + 1 : index + 1 + count]
        if len(values) != count:
            fail("%s takes %d arguments" % (option, count))
        index += 1 + count
        seen.add(option)
        if option in ("--ro-bind", "--bind"):
            ops.append(("bind", values[0], values[1], option == "--ro-bind"))
        elif option == "--symlink":
            ops.append(("symlink", values[0], values[1]))
        elif option == "--tmpfs":
            ops.append(("tmpfs", None, values[0], size))
            size = 0
        elif option == "--size":
            size = int(values[0])
            if size <= 0:
                fail("--size must be a positive number of bytes")
        elif option in ("--proc", "--dev", "--remount-ro"):
            ops.append((option[2:], None, values[0]))
        elif option == "--hostname":
            ops.append(("hostname", None, values[0]))
        elif option == "--chdir":
            chdir = values[0]
        elif option == "--setenv":
            environment.append((values[0], values[1]))
    else:
        fail("the sandbox arguments have no command")
    for option in REQUIRED_OPTIONS:
        if option not in seen:
            fail("the template implements only sandboxes with %s" % option)
    return seen, ops, environment, chdir, command


def start_kernel(request, sock):
    argv = request["argv"]
    seen, ops, environment, chdir, command = parse_arguments(argv[1:])
    if command != _CONFIG["command"]:
        fail("this template runs %r, not %r" % (_CONFIG["command"], command))
    base = dict(_CONFIG["environment"])
    episode = dict(environment)
    for name in ("LANG", "LC_ALL", "LC_CTYPE", "TZ"):
        if base.get(name) != episode.get(name):
            fail("the kernel's %s differs from the template's (the interpreter read it at start)" % name)
    spec = request.get("launch") or {}
    if spec.get("mode") != "idmap":
        fail("the template launches only kernels with their own uid (an idmapped workspace)")
    seccomp = request.get("seccomp")
    if ("--seccomp" in seen) != (seccomp is not None):
        fail("--seccomp and the filter come together")
    filter_code = None
    if seccomp is not None:
        filter_code = binascii.a2b_base64(seccomp)
        if not filter_code or len(filter_code) % 8:
            fail("the seccomp filter is not a whole number of BPF instructions")
    # What /proc/<pid>/cmdline and /proc/<pid>/environ show after bwrap's execvp: set while still root
    # (PR_SET_MM needs CAP_SYS_RESOURCE), inherited by the sandbox's processes.
    environment_block = b"".join(fsencode("%s=%s" % pair) + b"\0" for pair in environment)
    environment_block += b"PWD=" + fsencode(chdir or "/") + b"\0"
    set_command_line(b"".join(fsencode(part) + b"\0" for part in command), environment_block)
    # launch.py's steps, as the spawner's child runs them before it execs bwrap.
    launch.prepare_idmapped(spec["workspace"], spec["inode"], spec["stage"], int(spec["uid"]), int(spec["gid"]))
    sandbox(ops, environment, chdir, filter_code, sock)


def set_command_line(arguments, environment):
    # Never freed: the kernel's /proc/<pid>/cmdline and environ point into it for its lifetime.
    size = len(arguments) + len(environment)
    start = launch.libc.malloc(size)
    if not start:
        fail("no memory for the kernel's command line")
    ctypes.memmove(start, arguments + environment, size)
    with open("/proc/self/stat", "rb") as handle:
        fields = handle.read().rpartition(b")")[2].split()
    # fields[0] is the state (field 3 of proc(5)): field n is fields[n - 3].
    value = lambda n: int(fields[n - 3])  # noqa: E731
    brk = launch.libc.syscall(SYSCALLS[posix.uname().machine]["brk"], 0)
    mm_map = struct.pack(
        "12QIi",
        value(26),  # start_code
        value(27),  # end_code
        value(45),  # start_data
        value(46),  # end_data
        value(47),  # start_brk
        brk,
        value(28),  # start_stack
        start,
        start + len(arguments),
        start + len(arguments),
        start + len(arguments) + len(environment),
        0,  # auxv: unchanged
        0,
        -1,  # exe_fd: unchanged
    )
    map_buffer = ctypes.create_string_buffer(mm_map, len(mm_map))
    checked(
        launch.libc.prctl(PR_SET_MM, PR_SET_MM_MAP, ctypes.addressof(map_buffer), len(mm_map), 0),
        "setting the kernel's command line (prctl PR_SET_MM_MAP)",
    )


def write_file(path, text, dir_fd):
    fd = posix.open(path, posix.O_WRONLY | posix.O_CLOEXEC, dir_fd=dir_fd)
    try:
        posix.write(fd, text.encode())
    finally:
        posix.close(fd)


def uid_gid_map(sandbox_uid, parent_uid, sandbox_gid, parent_gid, deny_groups, proc_fd):
    directory = posix.open("self", posix.O_PATH | posix.O_CLOEXEC, dir_fd=proc_fd)
    try:
        try:
            write_file("uid_map", "%d %d 1\n" % (sandbox_uid, parent_uid), directory)
        except OSError as error:
            fail("setting up uid map", error.errno)
        if deny_groups:
            try:
                write_file("setgroups", "deny\n", directory)
            except FileNotFoundError:
                pass
            except OSError as error:
                fail("error writing to setgroups", error.errno)
        try:
            write_file("gid_map", "%d %d 1\n" % (sandbox_gid, parent_gid), directory)
        except OSError as error:
            fail("setting up gid map", error.errno)
    finally:
        posix.close(directory)


def drop_bounding_set():
    for capability in range(_CONFIG["last_cap"] + 1):
        if launch.libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) < 0 and ctypes.get_errno() not in (1, 22):
            fail("dropping capability %d from the bounding set" % capability, ctypes.get_errno())


def drop_all_capabilities():
    header = ctypes.create_string_buffer(struct.pack("Ii", 0x20080522, 0), 8)
    data = ctypes.create_string_buffer(24)
    syscall("capset", header, data)
    call("prctl", PR_SET_DUMPABLE, 1, 0, 0, 0)


def loopback_up():
    """bwrap's loopback_setup: 127.0.0.1/8 on lo, then lo up, over rtnetlink."""
    index = _socket.if_nametoindex("lo")
    netlink = _socket.socket(16, _socket.SOCK_RAW | _socket.SOCK_CLOEXEC, 0)
    try:
        netlink.bind((posix.getpid(), 0))
        loopback = bytes([127, 0, 0, 1])
        attribute = lambda kind, payload: struct.pack("HH", 4 + len(payload), kind) + payload  # noqa: E731
        address = struct.pack("BBBBi", 2, 8, 0x80, 254, index) + attribute(2, loopback) + attribute(1, loopback)
        link = struct.pack("BBHiII", 0, 0, 0, index, 1, 1)
        # RTM_NEWADDR (request, ack, excl, create), then RTM_NEWLINK (request, ack)
        requests = ((20, 0x1 | 0x4 | 0x200 | 0x400, address), (16, 0x1 | 0x4, link))
        for sequence, (kind, flags, body) in enumerate(requests, 1):
            netlink.send(struct.pack("IHHII", 16 + len(body), kind, flags, sequence, posix.getpid()) + body)
            while True:
                reply = netlink.recv(8192)
                length, reply_kind, _flags, reply_sequence, _pid = struct.unpack_from("IHHII", reply)
                if reply_sequence != sequence:
                    continue
                if reply_kind == 2:  # NLMSG_ERROR, 0 for the acknowledgement
                    (error,) = struct.unpack_from("i", reply, 16)
                    if error != 0:
                        fail("loopback: failed %s" % ("RTM_NEWADDR" if kind == 20 else "RTM_NEWLINK"), -error)
                    break
    finally:
        netlink.close()


def sandbox(ops, environment, chdir, filter_code, sock):
    """bwrap's main() up to its clone: the namespaces and the first user namespace's maps, then the fork of PID 1.

    Unlike bwrap this process does not stay as a monitor: it exits once it has said PID 1's pid, so that PID 1 is
    reparented to the spawner (a child subreaper), which reaps it and reports its exit as it reports bwrap's.
    """
    uid, gid = posix.getuid(), posix.getgid()
    if uid == 0:
        fail("the template does not run kernels as root")
    checked(launch.libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    # Dropping from root made this process non-dumpable, which makes its /proc files root's: bwrap, exec'd as the
    # kernel's uid, is dumpable, and writes its own uid map.
    call("prctl", PR_SET_DUMPABLE, 1, 0, 0, 0)
    proc_fd = posix.open("/proc", posix.O_PATH | posix.O_CLOEXEC)
    flags = CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP
    call("unshare", flags)
    # The first user namespace maps the kernel's ids to 0 (bwrap with --dev: devpts needs root mapped).
    uid_gid_map(0, uid, 0, gid, True, proc_fd)
    # PID 1 sleeps on this pipe until this process has exited (its end closes then), instead of spinning.
    exited_read, exited_write = posix.pipe()
    pid = posix.fork()
    if pid == 0:
        sock.close()
        posix.close(exited_write)
        sandbox_init(ops, environment, chdir, filter_code, proc_fd, uid, gid, exited_read)
    try:
        sock.sendall(b'{"pid":%d}' % pid)
    except OSError:
        posix.kill(pid, SIGKILL)  # nobody waits for this kernel any more
    posix._exit(0)


def host_parent(proc_fd):
    """The parent's pid as the host sees it (getppid() is 0 in a new PID namespace for a parent outside it)."""
    fd = posix.open("self/stat", posix.O_RDONLY | posix.O_CLOEXEC, dir_fd=proc_fd)
    try:
        data = posix.read(fd, 4096)
    finally:
        posix.close(fd)
    return int(data.rpartition(b")")[2].split()[1])


def await_spawner(proc_fd, exited_read):
    """Waits until the first process has exited and this process is the spawner's child."""
    while True:
        try:
            if not posix.read(exited_read, 1):
                break
        except InterruptedError:
            continue
    posix.close(exited_read)
    # The pipe ends as the first process's descriptors close, a moment before its children are reparented.
    spawner = _CONFIG["spawner"]
    for _ in range(100000):
        if host_parent(proc_fd) == spawner:
            return
        posix.sched_yield()
    fail("the kernel was not handed to the spawner")


def mountinfo(proc_fd, path):
    """bwrap's parse_mountinfo, enough for bind_mount: the mount at `path` (the topmost) and those below it."""
    fd = posix.open("self/mountinfo", posix.O_RDONLY | posix.O_CLOEXEC, dir_fd=proc_fd)
    try:
        chunks = []
        while True:
            chunk = posix.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        posix.close(fd)
    top = None
    below = []
    prefix = path.rstrip("/") + "/"
    for line in b"".join(chunks).decode("utf-8", "surrogateescape").splitlines():
        fields = line.split(" ")
        point = unescape(fields[4])
        options = 0
        for option in fields[5].split(","):
            options |= MOUNT_OPTION_FLAGS.get(option, 0)
        if point == path:
            top = options
            below = []
        elif point.startswith(prefix):
            below.append((point, options))
    return top, below


def unescape(text):
    if "\\" not in text:
        return text
    out = []
    index = 0
    while index < len(text):
        digits = text[index + 1 : index + 4]
        if text[index] == "\\" and len(digits) == 3 and digits.isdigit():
            out.append(chr(int(digits, 8)))
            index += 4
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


def set_mount_attributes(path, attributes, recursive):
    """Adds `attributes` (MOUNT_ATTR_*) to the mount at `path` and, when `recursive`, to every mount below it, in
    one mount_setattr call (the template needs Linux >= 5.12 for its idmapped workspaces anyway). Adding flags
    keeps every other flag of each mount, as bwrap's remount with the flags it read from mountinfo does.
    Returns False when the kernel refused (a mount below that will not take a flag, which bwrap skips alone)."""
    request = struct.pack("QQQQ", attributes, 0, 0, 0)
    buffer = ctypes.create_string_buffer(request, len(request))
    flags = AT_SYMLINK_NOFOLLOW | (AT_RECURSIVE if recursive else 0)
    result = launch.libc.syscall(
        launch.SYS_MOUNT_SETATTR, AT_FDCWD, fsencode(path), flags, buffer, ctypes.c_size_t(len(request))
    )
    if result == 0:
        return True
    if ctypes.get_errno() in (1, 13):  # EPERM, EACCES
        return False
    fail("cannot set the flags of the mount at %s (mount_setattr)" % path, ctypes.get_errno())


def bind_mount(proc_fd, source, dest, readonly, devices, recursive):
    if source is not None:
        mount(source, dest, None, MS_SILENT | MS_BIND | (MS_REC if recursive else 0))
    resolved = realpath(dest)
    attributes = (0 if devices else MOUNT_ATTR_NODEV) | MOUNT_ATTR_NOSUID | (MOUNT_ATTR_RDONLY if readonly else 0)
    # bwrap reads /proc/self/mountinfo for every bind (the mount and those below it) and remounts each with its
    # flags plus these: a fifth of a template kernel's start. mount_setattr gives the same flags in one call;
    # only where the kernel refuses one of the mounts does the mountinfo walk below run, as bwrap's does.
    if set_mount_attributes(resolved, attributes, recursive):
        return
    dest_fd = posix.open(resolved, posix.O_PATH | posix.O_CLOEXEC)
    try:
        kernel_path = posix.readlink("/oldroot/proc/self/fd/%d" % dest_fd)
    finally:
        posix.close(dest_fd)
    current, below = mountinfo(proc_fd, kernel_path)
    if current is None:
        fail("cannot find the mount at %s" % kernel_path)
    extra = (0 if devices else MS_NODEV) | MS_NOSUID | (MS_RDONLY if readonly else 0)
    if current | extra != current:
        mount("none", resolved, None, MS_SILENT | MS_BIND | MS_REMOUNT | current | extra)
    if recursive:
        for point, options in below:
            if options | extra != options:
                flags = MS_SILENT | MS_BIND | MS_REMOUNT | options | extra
                result = launch.libc.mount(b"none", fsencode(point), None, flags, None)
                if result < 0 and ctypes.get_errno() != 13:
                    fail("cannot remount %s" % point, ctypes.get_errno())


def is_directory(path):
    try:
        return (posix.stat(path).st_mode & 0o170000) == 0o040000
    except OSError:
        return None


def ensure_dir(path, mode=0o755):
    try:
        mode_bits = posix.stat(path).st_mode
    except OSError:
        try:
            posix.mkdir(path, mode)
        except FileExistsError:
            pass
        except OSError as error:
            fail("cannot make the directory %s" % path, error.errno)
        return
    if (mode_bits & 0o170000) != 0o040000:
        fail("cannot make the directory %s" % path, 20)


def ensure_file(path, mode=0o444):
    try:
        stat = posix.stat(path)
        if (stat.st_mode & 0o170000) not in (0o040000, 0o120000):
            return
    except OSError:
        pass
    try:
        posix.close(posix.open(path, posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC | posix.O_CLOEXEC, mode))
    except FileExistsError:
        pass
    except OSError as error:
        fail("cannot create the file %s" % path, error.errno)


def mkdir_parents(path, mode):
    parts = [part for part in path.split("/") if part]
    for count in range(1, len(parts)):
        ensure_dir("/" + "/".join(parts[:count]), mode)


def setup_newroot(ops, proc_fd):
    for op in ops:
        kind, source, dest = op[0], op[1], op[2]
        if kind == "hostname":
            value = fsencode(dest)
            call("sethostname", value, len(value))
            continue
        new = "/newroot" + dest
        if kind != "remount-ro":
            # bwrap derives the parents' mode from the op's permissions, which only a tmpfs has (0755); for the
            # others they are 0 (unset), which makes the parents 0700.
            mkdir_parents(new, 0o755 if kind == "tmpfs" else 0o700)
        if kind == "bind":
            old = "/oldroot" + source
            directory = is_directory(old)
            if directory is None:
                fail("Can't get type of source %s" % source, 2)
            if directory:
                ensure_dir(new)
            else:
                ensure_file(new)
            bind_mount(proc_fd, old, new, op[3], False, True)
        elif kind == "remount-ro":
            bind_mount(proc_fd, None, new, True, False, False)
        elif kind == "proc":
            ensure_dir(new)
            mount("proc", new, "proc", MS_NOSUID | MS_NOEXEC | MS_NODEV)
            for name in ("sys", "sysrq-trigger", "irq", "bus"):
                subdir = new + "/" + name
                if not posix.access(subdir, posix.W_OK):
                    continue  # read-only already, or missing (bwrap skips EACCES, ENOENT and EROFS the same way)
                bind_mount(proc_fd, subdir, subdir, True, False, True)
        elif kind == "dev":
            ensure_dir(new)
            mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
            for name in ("null", "zero", "full", "random", "urandom", "tty"):
                node = new + "/" + name
                try:
                    flags = posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC | posix.O_CLOEXEC
                    posix.close(posix.open(node, flags, 0o444))
                except OSError as error:
                    fail("Can't create file %s/%s" % (dest, name), error.errno)
                bind_mount(proc_fd, "/oldroot/dev/" + name, node, False, True, True)
            for number, name in enumerate(("stdin", "stdout", "stderr")):
                posix.symlink("/proc/self/fd/%d" % number, new + "/" + name)
            posix.symlink("/proc/self/fd", new + "/fd")
            posix.symlink("/proc/kcore", new + "/core")
            posix.mkdir(new + "/shm", 0o755)
            posix.mkdir(new + "/pts", 0o755)
            mount("devpts", new + "/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620")
            posix.symlink("pts/ptmx", new + "/ptmx")
        elif kind == "tmpfs":
            ensure_dir(new)
            size = op[3]
            mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=%d" % size if size else "mode=0755")
        elif kind == "symlink":
            try:
                posix.symlink(source, new)
            except FileExistsError:
                try:
                    existing = posix.readlink(new)
                except OSError:
                    fail("Can't make symlink at %s: destination exists and is not a symlink" % dest)
                if existing != source:
                    fail("Can't make symlink at %s: existing destination is %s" % (dest, existing))


def load_seccomp(code):
    instructions = ctypes.create_string_buffer(code, len(code))
    program = struct.pack("HxxxxxxP", len(code) // 8, ctypes.addressof(instructions))
    buffer = ctypes.create_string_buffer(program, len(program))
    checked(launch.libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(buffer), 0, 0), "seccomp")


def sandbox_init(ops, environment, chdir, filter_code, proc_fd, uid, gid, exited_read):
    """PID 1 of the sandbox: bwrap's child from the clone to the execvp, then the bootstrap's main(); never returns."""
    try:
        await_spawner(proc_fd, exited_read)
        drop_bounding_set()
        loopback_up()
        old_umask = posix.umask(0)
        resolved = []
        for op in ops:
            if op[0] == "bind":
                try:
                    resolved.append((op[0], realpath(op[1], strict=True), op[2], op[3]))
                except OSError as error:
                    fail("Can't find source path %s" % op[1], error.errno)
            else:
                resolved.append(op)
        mount(None, "/", None, MS_SILENT | MS_SLAVE | MS_REC)
        mount("tmpfs", "/tmp", "tmpfs", MS_NODEV | MS_NOSUID)
        posix.chdir("/tmp")
        posix.mkdir("newroot", 0o755)
        mount("newroot", "newroot", None, MS_SILENT | MS_MGC_VAL | MS_BIND | MS_REC)
        posix.mkdir("oldroot", 0o755)
        syscall("pivot_root", b"/tmp", b"oldroot")
        posix.chdir("/")
        setup_newroot(resolved, proc_fd)
        mount("oldroot", "oldroot", None, MS_SILENT | MS_REC | MS_PRIVATE)
        call("umount2", b"oldroot", MNT_DETACH)
        old_root = posix.open("/", posix.O_DIRECTORY | posix.O_RDONLY | posix.O_CLOEXEC)
        posix.chdir("/newroot")
        syscall("pivot_root", b".", b".")
        posix.fchdir(old_root)
        call("umount2", b".", MNT_DETACH)
        posix.chdir("/")
        posix.close(old_root)
        # The second user namespace: the kernel's own ids again (0 in the first one).
        call("unshare", CLONE_NEWUSER)
        drop_bounding_set()
        uid_gid_map(uid, 0, gid, 0, False, proc_fd)
        drop_all_capabilities()
        posix.umask(old_umask)
        posix.chdir(chdir or "/")
        posix.setsid()
        # --die-with-parent: set last, as credential changes clear it; the parent is the spawner, as bwrap's
        # monitor's is (and bwrap's PID 1 dies with the monitor).
        launch.libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)
        if host_parent(proc_fd) != _CONFIG["spawner"]:
            posix._exit(EXIT_FAILED)
        posix.close(proc_fd)
        if filter_code is not None:
            load_seccomp(filter_code)
        become_interpreter(environment, chdir or "/")
    except SystemExit:
        raise
    except BaseException as error:  # noqa: BLE001
        fail("cannot set up the sandbox: %r" % (error,))
    posix._exit(EXIT_FAILED)


def become_interpreter(environment, cwd):
    """What the interpreter would have had, exec'd by bwrap: environment, argv, modules, descriptors 0-4."""
    launch.libc.clearenv()
    posix.environ.clear()
    for name, value in environment + [("PWD", cwd)]:
        posix.putenv(name, value)
        posix.environ[fsencode(name)] = fsencode(value)
    for name in list(sys.modules):
        if name not in _KERNEL_MODULES:
            del sys.modules[name]
    signal = sys.modules["_signal"]
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    posix.closerange(5, posix.sysconf("SC_OPEN_MAX"))
    del _CONFIG["spawner"]  # the one host value these globals hold; the frames' go as they unwind
    raise SystemExit(_BOOTSTRAP.main)  # to the loader, past every frame of the template (sandbox_init lets it pass)


def main():
    configure(globals().pop("_DIRECTORY"))
    serve()


def configure(directory):
    """Loads the bootstrap and what the kernels' first processes need, once. Nothing it keeps names a host path: a
    kernel is a copy of this interpreter (see the module docstring)."""
    global _BOOTSTRAP, _KERNEL_MODULES, _CONFIG
    # Read with posix alone: whatever the template imports before the bootstrap stays in the kernels' sys.modules.
    lines = posix.read(3, 1 << 16).decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 3:
        posix.write(2, b"progagent template: expected a configuration on descriptor 3\n")
        posix._exit(EXIT_FAILED)
    code_path, script, command = lines[0], lines[1], lines[2:]
    _BOOTSTRAP = _load_bootstrap(code_path, script)
    _KERNEL_MODULES = set(sys.modules)
    _imports(directory)
    environment = {}
    for name, value in posix.environ.items():
        environment[fsdecode(name)] = fsdecode(value)
    with open("/proc/sys/kernel/cap_last_cap") as handle:
        last_cap = int(handle.read())
    _CONFIG = {
        "command": command + [script],
        "environment": environment,
        "spawner": posix.getppid(),
        "last_cap": last_cap,
    }
    # What the interpreter would have had, exec'd by bwrap (not the loader's code and this file's path).
    sys.argv[:] = [script]
    sys.orig_argv[:] = command + [script]
    # Collections in the kernels skip what exists now: traversing it would copy the pages they share.
    import gc

    gc.collect()
    gc.freeze()


if __name__ == "__main__":
    main()
