"""Kernel spawner: one small long-lived process per host process that forks the kernels' sandboxes (stdlib only).

Why: fork() from the host costs time in proportion to the host's memory (13-30 ms once Node holds a few hundred
MB, all of it on Node's one thread), so a burst of kernel starts serialised there. This process stays small, so
its fork is cheap, and it runs the launcher's steps (launch.py: idmapped workspace mount, dropping to the kernel's
uid/gid, the set-id filter) in the forked child instead of starting a launcher interpreter for every kernel.
What the child finally execs (bwrap with the same arguments) and the descriptors it gets are what the host gave
it before: 0 /dev/null, 1 and 2 the output files, 3 and 4 the protocol pipes, 5 the seccomp filter, 6 bwrap's
info. The protocol pipes are ordinary pipes made here; the host opens its ends through /proc/<this pid>/fd/<n>
(Node cannot receive descriptors over a socket) and then tells this process to close its copies.

    spawner.py <host pid>

Requests on stdin and replies on stdout, one JSON object a line:
  {"op": "spawn", "id": n, "argv": [...], "stdout": path, "stderr": path, "seccomp": base64 | null,
   "launch": null | {"mode": "setid"} | {"mode": "idmap", "workspace", "inode", "stage", "uid", "gid"},
   "cgroups": [directory, ...]}   cgroups the child joins first (every process of the sandbox is born in them)
      -> {"t": "spawned", "id": n, "pid": p, "command": fd, "reply": fd}   or {"t": "failed", "id": n, "error": text}
      -> {"t": "info", "id": n, "child": pid | null}                        (bwrap's child, from its info fd)
      -> {"t": "exit", "id": n, "code": c | null, "signal": s | null}
  {"op": "release", "id": n}     the host opened its ends of the pipes: close the copies here
  {"op": "kill", "id": n}        SIGKILL to the kernel's process group, unless it was reaped already
The spawner ends when the host closes stdin or dies (parent-death signal), killing what it started.
"""

import base64
import fcntl
import json
import os
import select
import selectors
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launch  # noqa: E402  (the launcher's steps, run in the forked child)

PR_SET_PDEATHSIG = 1
EXIT_FAILED = 125
# The child's descriptors are parked at or above this number before they are moved to 0..6.
PARK_FROM = 64


class Kernel:
    __slots__ = ("id", "pid", "held", "info", "info_text", "info_sent")

    def __init__(self, ident, pid, held, info):
        self.id = ident
        self.pid = pid
        self.held = held  # the host's ends of the protocol pipes until it says release
        self.info = info
        self.info_text = b""
        self.info_sent = info is None


class Spawner:
    def __init__(self):
        self.selector = selectors.DefaultSelector()
        self.kernels = {}  # id -> Kernel
        self.by_pid = {}  # pid -> Kernel, until reaped
        self.pending = b""
        os.set_blocking(0, False)
        self.selector.register(0, selectors.EVENT_READ, "requests")
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_read, False)
        os.set_blocking(wake_write, False)
        signal.set_wakeup_fd(wake_write)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        self.wake = wake_read
        self.selector.register(wake_read, selectors.EVENT_READ, "signal")

    def send(self, message):
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        view = memoryview(data)
        while view:
            try:
                written = os.write(1, view)
            except BlockingIOError:
                # The host is busy: wait until it reads (stdout is blocking unless someone changed it).
                select.select([], [1], [])
                continue
            view = view[written:]

    def run(self):
        while True:
            for key, _ in self.selector.select():
                if key.data == "requests":
                    self.read_requests()
                elif key.data == "signal":
                    try:
                        while os.read(self.wake, 512):
                            pass
                    except BlockingIOError:
                        pass
                    self.reap()
                else:
                    self.read_info(key.data)

    def read_requests(self):
        while True:
            try:
                chunk = os.read(0, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                self.shutdown()
            self.pending += chunk
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                if line.strip():
                    self.handle(json.loads(line))

    def handle(self, request):
        op = request.get("op")
        ident = request.get("id")
        if op == "spawn":
            try:
                self.spawn(request)
            except OSError as error:
                self.send({"t": "failed", "id": ident, "error": "%s: %s" % (error.strerror or error, error.filename or "")})
        elif op == "release":
            kernel = self.kernels.get(ident)
            if kernel:
                for fd in kernel.held:
                    os.close(fd)
                kernel.held = []
                self.forget_if_done(kernel)
        elif op == "kill":
            kernel = self.kernels.get(ident)
            if kernel and kernel.pid in self.by_pid:
                try:
                    os.killpg(kernel.pid, signal.SIGKILL)
                except OSError:
                    pass

    def spawn(self, request):
        opened = []
        try:
            devnull = os.open("/dev/null", os.O_RDONLY | os.O_CLOEXEC)
            opened.append(devnull)
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
            out = os.open(request["stdout"], flags, 0o600)
            opened.append(out)
            err = os.open(request["stderr"], flags, 0o600)
            opened.append(err)
            command_read, command_write = os.pipe()
            opened += [command_read, command_write]
            reply_read, reply_write = os.pipe()
            opened += [reply_read, reply_write]
            layout = [devnull, out, err, command_read, reply_write]
            if request.get("seccomp"):
                # bwrap reads the filter to end of file before it starts: a few hundred bytes fit in the pipe.
                filter_read, filter_write = os.pipe()
                opened += [filter_read, filter_write]
                os.write(filter_write, base64.b64decode(request["seccomp"]))
                os.close(filter_write)
                opened.remove(filter_write)
                layout.append(filter_read)
            else:
                layout.append(None)
            info_read, info_write = os.pipe()
            opened += [info_read, info_write]
            layout.append(info_write)
            pid = os.fork()
        except BaseException:
            for fd in opened:
                os.close(fd)
            raise
        if pid == 0:
            child(request, layout)
        for fd in opened:
            if fd not in (command_read, command_write, reply_read, info_read):
                os.close(fd)
        os.set_blocking(info_read, False)
        kernel = Kernel(request["id"], pid, [command_read, command_write, reply_read], info_read)
        self.kernels[kernel.id] = kernel
        self.by_pid[pid] = kernel
        self.selector.register(info_read, selectors.EVENT_READ, kernel)
        self.send({"t": "spawned", "id": kernel.id, "pid": pid, "command": command_write, "reply": reply_read})

    def read_info(self, kernel):
        try:
            chunk = os.read(kernel.info, 4096)
        except BlockingIOError:
            return
        # Read to the end (bwrap closes it after writing): closing early could kill bwrap with SIGPIPE.
        if chunk:
            if len(kernel.info_text) < 4096:
                kernel.info_text += chunk
            if not kernel.info_sent:
                child_pid = child_pid_of(kernel.info_text, final=False)
                if child_pid is not None:
                    kernel.info_sent = True
                    self.send({"t": "info", "id": kernel.id, "child": child_pid})
            return
        self.close_info(kernel)

    def close_info(self, kernel):
        if kernel.info is None:
            return
        self.selector.unregister(kernel.info)
        os.close(kernel.info)
        kernel.info = None
        if not kernel.info_sent:
            kernel.info_sent = True
            self.send({"t": "info", "id": kernel.id, "child": child_pid_of(kernel.info_text, final=True)})

    def reap(self):
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            kernel = self.by_pid.pop(pid, None)
            if kernel is None:
                continue
            # Whatever bwrap wrote to its info descriptor is in the pipe by now.
            if kernel.info is not None:
                try:
                    while True:
                        chunk = os.read(kernel.info, 4096)
                        if not chunk:
                            break
                        if len(kernel.info_text) < 4096:
                            kernel.info_text += chunk
                except BlockingIOError:
                    pass
                self.close_info(kernel)
            exited = os.WIFEXITED(status)
            self.send(
                {
                    "t": "exit",
                    "id": kernel.id,
                    "code": os.WEXITSTATUS(status) if exited else None,
                    "signal": None if exited else os.WTERMSIG(status),
                }
            )
            self.forget_if_done(kernel)

    def forget_if_done(self, kernel):
        if not kernel.held and kernel.pid not in self.by_pid:
            self.kernels.pop(kernel.id, None)

    def shutdown(self):
        for pid in list(self.by_pid):
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
        os._exit(0)


def child_pid_of(text, final):
    try:
        decoded = text.decode("utf-8", "replace")
    except Exception:
        return None
    marker = decoded.find('"child-pid"')
    if marker < 0:
        return None
    rest = decoded[marker + len('"child-pid"') :].lstrip()
    if not rest.startswith(":"):
        return None
    digits = ""
    for character in rest[1:].lstrip():
        if character.isdigit():
            digits += character
        else:
            return int(digits) if digits else None
    return int(digits) if digits and final else None


def join_cgroups(directories):
    """Moves this process into each cgroup (before the exec, so all it starts is born there); fails the start
    if one refuses: a kernel never runs outside its budgets."""
    for directory in directories:
        if not isinstance(directory, str) or not os.path.isabs(directory):
            raise ValueError("a cgroup directory must be an absolute path, got %r" % (directory,))
        path = os.path.join(directory, "cgroup.procs")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
            try:
                os.write(fd, b"%d" % os.getpid())
            finally:
                os.close(fd)
        except OSError as error:
            raise RuntimeError("cannot join the kernel's cgroup (%s: %s)" % (path, error.strerror)) from None


def child(request, layout):
    """In the forked child: the descriptors, a session of its own, the launcher's steps, exec. Never returns."""
    try:
        # What a process spawned by Node starts with: default dispositions, nothing blocked.
        for number in range(1, signal.NSIG):
            if number in (signal.SIGKILL, signal.SIGSTOP):
                continue
            try:
                signal.signal(number, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
        signal.set_wakeup_fd(-1)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        os.setsid()
        # Parked first on free numbers above the layout, so that moving one into place never clobbers another.
        parked = [None if fd is None else fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, PARK_FROM) for fd in layout]
        for index, fd in enumerate(parked):
            if fd is None:
                try:
                    os.close(index)
                except OSError:
                    pass
            else:
                os.dup2(fd, index)  # dup2 leaves the target inheritable
        os.closerange(len(layout), os.sysconf("SC_OPEN_MAX"))
        join_cgroups(request.get("cgroups") or [])  # a failure is reported on the kernel's stderr (fd 2 by now)
        argv = request["argv"]
        spec = request.get("launch")
        if spec and spec.get("mode") == "idmap":
            launch.prepare_idmapped(spec["workspace"], spec["inode"], spec["stage"], int(spec["uid"]), int(spec["gid"]))
        elif spec and spec.get("mode") == "setid":
            launch.install_setid_filter()
        launch.run(argv)
    except BaseException as error:  # noqa: BLE001 - report anything on the kernel's stderr
        try:
            os.write(2, ("progagent spawner: cannot start the kernel: %r\n" % (error,)).encode())
        except OSError:
            pass
    os._exit(EXIT_FAILED)


def main(argv):
    host = int(argv[0]) if argv else os.getppid()
    launch.libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != host:
        os._exit(0)  # the host died before the parent-death signal was armed
    # A terminal's Ctrl-C is the host's to handle; the spawner ends only with the host.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    Spawner().run()


if __name__ == "__main__":
    main(sys.argv[1:])
