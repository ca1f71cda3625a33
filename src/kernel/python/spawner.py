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
   "launch": null | {"mode": "setid"} | {"mode": "idmap", "workspace", "inode", "stage", "uid", "gid"}}
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
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launch  # noqa: E402  (the launcher's steps, run in the forked child)

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
EXIT_FAILED = 125
TEMPLATE_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "template.py")
# How a template runs template.py: compiled without its path by `python -c`, whose frame names no host file either,
# and which is the only frame left below a kernel's main() once the kernel's PID 1 has unwound the template's.
TEMPLATE_LOADER = """\
import sys
path = sys.argv.pop()
namespace = {"__name__": "__main__", "__builtins__": __builtins__, "_DIRECTORY": path.rpartition("/")[0]}
with open(path, "rb") as source:
    code = compile(source.read(), "<progagent template>", "exec", dont_inherit=True)
del path, source
main = None
try:
    exec(code, namespace)
except SystemExit as kernel:
    if not callable(kernel.code):
        raise
    main = kernel.code
del sys, namespace, code
try:
    main()
finally:
    __import__("posix")._exit(1)
"""
# How long a template may take to fork a kernel's first process (it forks and goes back to waiting).
TEMPLATE_FORK_TIMEOUT = 5.0
# A template forks at most this many kernels, then a new one takes over: kernels forked from one template share
# its address-space layout and its string-hash secret (no exec re-randomises them), so this bounds how many do.
# (PROGAGENT_KERNEL_TEMPLATE_MAX overrides it, for tests.)
TEMPLATE_MAX_KERNELS = 64
try:
    TEMPLATE_MAX_KERNELS = max(1, int(os.environ.get("PROGAGENT_KERNEL_TEMPLATE_MAX", TEMPLATE_MAX_KERNELS)))
except ValueError:
    pass
# How long a start whose first process ended without a pid waits for its template's death to be reaped.
ENDED_GRACE = 0.2
# Exits of processes not (yet) known by pid: a template's kernel can exit before it says its pid.
MAX_UNCLAIMED = 4096
UNCLAIMED_TTL = 5.0
# The child's descriptors are parked at or above this number before they are moved to 0..6.
PARK_FROM = 64


class Kernel:
    __slots__ = (
        "id", "pid", "held", "info", "info_text", "info_sent",
        "channel", "template", "deadline", "kill_requested", "pipes", "ended",
    )  # fmt: skip

    def __init__(self, ident, pid, held, info):
        self.id = ident
        self.pid = pid
        self.held = held  # the host's ends of the protocol pipes until it says release
        self.info = info
        self.info_text = b""
        self.info_sent = info is None
        self.channel = None  # started by a template: the socket its first process reports on
        self.template = None
        self.deadline = None
        self.kill_requested = False
        self.pipes = None
        self.ended = False  # its channel closed before it said its pid


class Template:
    """A template process (template.py) for one sandbox configuration, and the kernels it forked."""

    __slots__ = ("key", "pid", "control", "kernels", "forks", "retired")

    def __init__(self, key, pid, control):
        self.key = key
        self.pid = pid
        self.control = control
        self.kernels = set()
        self.forks = 0
        self.retired = False  # served its share: it exits once it has forked what it was sent


class Spawner:
    def __init__(self):
        self.selector = selectors.DefaultSelector()
        self.kernels = {}  # id -> Kernel
        self.starting = {}  # id -> Kernel: template starts whose pid has not arrived (the only ones with a deadline)
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
        self.templates = {}  # configuration key -> Template
        self.template_pids = {}  # pid -> Template
        self.unclaimed = {}  # pid -> wait status
        self.subreaper = False

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
            timeout = self.next_deadline()
            for key, _ in self.selector.select(timeout):
                if isinstance(key.data, tuple):
                    self.read_channel(key.data[1])
                elif key.data == "requests":
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
            self.expire()

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
                if request.get("template"):
                    self.spawn_from_template(request)
                else:
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
            if kernel and kernel.pid is None:
                kernel.kill_requested = True
            elif kernel and kernel.pid in self.by_pid:
                try:
                    os.killpg(kernel.pid, signal.SIGKILL)
                except OSError:
                    pass

    def spawn(self, request):
        opened = []
        try:
            devnull, out, err, command_read, command_write, reply_read, reply_write = kernel_descriptors(request, opened)
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
            template = self.template_pids.pop(pid, None)
            if template is not None:
                self.template_died(template, status)
                continue
            kernel = self.by_pid.pop(pid, None)
            if kernel is None:
                # A template's kernel that has not said its pid yet (or an orphan the subreaper inherited).
                if self.subreaper:
                    if len(self.unclaimed) >= MAX_UNCLAIMED:
                        self.unclaimed.pop(next(iter(self.unclaimed)))
                    self.unclaimed[pid] = (status, time.monotonic())
                continue
            self.report_exit(kernel, status)

    def report_exit(self, kernel, status):
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
        if kernel.channel is not None:
            self.read_channel(kernel)  # its last report, if any, then the end of the channel
            if kernel.channel is not None:
                self.close_channel(kernel)
        if kernel.template is not None:
            kernel.template.kernels.discard(kernel)
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

    # --- kernels forked by a template (template.py) ---------------------------------------------------------

    def template_for(self, spec):
        key = json.dumps(spec, sort_keys=True)
        template = self.templates.get(key)
        if template is not None:
            return template
        if not self.subreaper:
            # The template's kernels are reparented here (and never are the template's children).
            if launch.libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
                raise OSError("cannot become the kernels' subreaper (prctl PR_SET_CHILD_SUBREAPER)")
            self.subreaper = True
        interpreter = spec["interpreter"]
        flags = list(spec["flags"])
        # The configuration comes on the control socket: the template's command line names no bootstrap.
        argv = [interpreter, *flags, "-c", TEMPLATE_LOADER, TEMPLATE_SOURCE]
        config = "\n".join([spec["code"], spec["script"], interpreter, *flags])
        if any("\n" in part or not part for part in [spec["code"], spec["script"], interpreter, *flags]):
            raise OSError("the template's paths and flags must be non-empty and without newlines")
        environment = {str(name): str(value) for name, value in spec["environment"].items()}
        control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        devnull = os.open("/dev/null", os.O_RDWR | os.O_CLOEXEC)
        try:
            pid = os.fork()
            if pid == 0:
                start_template(argv, environment, devnull, theirs.fileno())
        finally:
            os.close(devnull)
            theirs.close()
        try:
            control.send(config.encode())
        except OSError:
            pass  # it died at once: reaped and reported like any template death
        template = Template(key, pid, control)
        self.templates[key] = template
        self.template_pids[pid] = template
        return template

    def template_died(self, template, status):
        if self.templates.get(template.key) is template:
            del self.templates[template.key]
        if template.control.fileno() >= 0:
            template.control.close()
        how = "code %d" % os.WEXITSTATUS(status) if os.WIFEXITED(status) else "signal %d" % os.WTERMSIG(status)
        reason = "the kernel template (pid %d) exited (%s)" % (template.pid, how)
        for kernel in list(template.kernels):
            if kernel.pid is None:
                self.fail_template_start(kernel, reason)
            else:
                # A running kernel needs nothing of its template (its PID 1 is this process's child, which it
                # reaps as subreaper), however the template ended: retired, crashed, or killed here for not
                # answering. Killing them would take unrelated episodes' state for a template's fault.
                kernel.template = None
                template.kernels.discard(kernel)

    def retire(self, template):
        """No more requests for this template; it reads those it has, then the end of its socket, and exits."""
        if self.templates.get(template.key) is template:
            del self.templates[template.key]
        template.retired = True
        try:
            template.control.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def spawn_from_template(self, request):
        template = self.template_for(request["template"])
        opened = []
        channel = None
        try:
            devnull, out, err, command_read, command_write, reply_read, reply_write = kernel_descriptors(request, opened)
            channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                template.control.sendmsg([b"f"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fd_array([theirs.fileno()]))])
            finally:
                theirs.close()
            message = json.dumps(
                {"argv": request["argv"], "seccomp": request.get("seccomp"), "launch": request.get("launch")}
            ).encode()
            channel.sendmsg(
                [message],
                [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fd_array([devnull, out, err, command_read, reply_write]))],
            )
        except BaseException:
            for fd in opened:
                os.close(fd)
            if channel is not None:
                channel.close()
            raise
        for fd in (devnull, out, err, reply_write):
            os.close(fd)
        kernel = Kernel(request["id"], None, [command_read, command_write, reply_read], None)
        kernel.channel = channel
        kernel.template = template
        kernel.deadline = time.monotonic() + TEMPLATE_FORK_TIMEOUT
        kernel.pipes = (command_write, reply_read)
        kernel.info_sent = False
        template.kernels.add(kernel)
        template.forks += 1
        if template.forks >= TEMPLATE_MAX_KERNELS:
            self.retire(template)
        self.kernels[kernel.id] = kernel
        self.starting[kernel.id] = kernel
        channel.setblocking(False)
        self.selector.register(channel, selectors.EVENT_READ, ("channel", kernel))

    def read_channel(self, kernel):
        while kernel.channel is not None:
            try:
                data = kernel.channel.recv(256)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self.close_channel(kernel)
                if kernel.pid is None:
                    # Its first process failed (it said why on the kernel's stderr), or the template died with the
                    # request in flight: that death is reaped in a moment and names the template instead.
                    kernel.ended = True
                    kernel.deadline = time.monotonic() + ENDED_GRACE
                elif not kernel.info_sent:
                    kernel.info_sent = True
                    self.send({"t": "info", "id": kernel.id, "child": None})
                return
            report = json.loads(data)
            if "pid" in report and kernel.pid is None:
                self.claimed(kernel, int(report["pid"]))
            elif "child" in report and not kernel.info_sent and kernel.pid is not None:
                kernel.info_sent = True
                self.send({"t": "info", "id": kernel.id, "child": int(report["child"])})

    def claimed(self, kernel, pid):
        kernel.pid = pid
        kernel.deadline = None
        self.starting.pop(kernel.id, None)
        self.by_pid[pid] = kernel
        command_write, reply_read = kernel.pipes
        # The pid is the sandbox's PID 1, the interpreter (there is no bwrap process around it).
        self.send(
            {
                "t": "spawned",
                "id": kernel.id,
                "pid": pid,
                "command": command_write,
                "reply": reply_read,
                "interpreter": True,
            }
        )
        if kernel.kill_requested:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
        unclaimed = self.unclaimed.pop(pid, None)
        if unclaimed is not None and not process_exists(pid):
            # Its exit was reaped before its pid arrived. (An exit recorded for an earlier process with the same
            # pid is not this kernel's: this one is still alive.)
            del self.by_pid[pid]
            self.report_exit(kernel, unclaimed[0])

    def close_channel(self, kernel):
        self.selector.unregister(kernel.channel)
        kernel.channel.close()
        kernel.channel = None

    def fail_template_start(self, kernel, reason):
        if kernel.channel is not None:
            self.close_channel(kernel)
        for fd in kernel.held:
            os.close(fd)
        kernel.held = []
        kernel.template.kernels.discard(kernel)
        self.kernels.pop(kernel.id, None)
        self.starting.pop(kernel.id, None)
        self.send({"t": "failed", "id": kernel.id, "error": reason})

    def next_deadline(self):
        # Only starts in flight have a deadline: the loop never walks every live kernel (2,048 in a burst).
        deadlines = [kernel.deadline for kernel in self.starting.values() if kernel.deadline is not None]
        return None if not deadlines else max(0.0, min(deadlines) - time.monotonic())

    def expire(self):
        now = time.monotonic()
        while self.unclaimed:
            oldest = next(iter(self.unclaimed))
            if now - self.unclaimed[oldest][1] < UNCLAIMED_TTL:
                break
            del self.unclaimed[oldest]
        for kernel in list(self.starting.values()):
            if kernel.deadline is not None and kernel.deadline <= now and kernel.pid is None and kernel.ended:
                self.fail_template_start(kernel, "the kernel's first process ended before it started")
            elif kernel.deadline is not None and kernel.deadline <= now and kernel.pid is None:
                template = kernel.template
                self.fail_template_start(
                    kernel,
                    "the kernel template (pid %d) did not fork the kernel within %d ms"
                    % (template.pid, TEMPLATE_FORK_TIMEOUT * 1000),
                )
                # A template that does not answer is replaced: the next start gets a new one.
                if self.templates.get(template.key) is template:
                    del self.templates[template.key]
                try:
                    os.kill(template.pid, signal.SIGKILL)
                except OSError:
                    pass

    def forget_if_done(self, kernel):
        if not kernel.held and kernel.pid not in self.by_pid:
            self.kernels.pop(kernel.id, None)

    def shutdown(self):
        for pid in list(self.template_pids):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in list(self.by_pid):
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
        os._exit(0)


def kernel_descriptors(request, opened):
    """A kernel's descriptors before it starts: /dev/null, its output files, the command and reply pipes (both
    ends). Each is added to `opened` as it is made, so the caller can close them all if a later step fails."""
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
    return devnull, out, err, command_read, command_write, reply_read, reply_write


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


def reset_signals_and_session():
    """In a forked child: what a process spawned by Node starts with (default dispositions, nothing blocked, no
    wakeup descriptor), in a session of its own."""
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


def child(request, layout):
    """In the forked child: the descriptors, a session of its own, the launcher's steps, exec. Never returns."""
    try:
        reset_signals_and_session()
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


def process_exists(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def fd_array(fds):
    return b"".join(fd.to_bytes(4, sys.byteorder) for fd in fds)


def start_template(argv, environment, devnull, control):
    """In the forked child: a template process on descriptors 0 and 1 /dev/null, 2 the spawner's, 3 its socket."""
    try:
        reset_signals_and_session()
        parked = fcntl.fcntl(control, fcntl.F_DUPFD_CLOEXEC, PARK_FROM)
        os.dup2(devnull, 0)
        os.dup2(devnull, 1)
        os.dup2(parked, 3)
        os.closerange(4, os.sysconf("SC_OPEN_MAX"))
        launch.libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        os.execve(argv[0], argv, environment)
    except BaseException as error:  # noqa: BLE001
        try:
            os.write(2, ("progagent spawner: cannot start the kernel template: %r\n" % (error,)).encode())
        except OSError:
            pass
    os._exit(EXIT_FAILED)


def main(argv):
    launch.bind_to_host(argv)  # the spawner ends only with the host
    Spawner().run()


if __name__ == "__main__":
    main(sys.argv[1:])
