"""progagent kernel: a persistent Python interpreter driven by the host over dedicated file descriptors.

Protocol: newline-delimited JSON. The host writes commands on fd 3 and reads replies on fd 4 (both are
moved to high descriptors at start). The program's stdout/stderr (fd 1/2) are files the host reads after
each execution, so nothing the program prints can corrupt the protocol. Stdlib only; imports that cost
start-up time are deferred until first use.

Two processes: this one forks the worker that runs the program and becomes its supervisor, which is not
dumpable (a process of the same uid can open neither its /proc/<pid>/fd nor its memory). Whatever the
worker writes is untrusted: the program can write anything there. The supervisor's own lines (ready,
stopped, exited, violation) carry a key that the host sends as the first command line, which the
supervisor reads while the worker is stopped, so the worker never sees it. An execution ends only when
the worker has stopped itself after its reply: the supervisor sees the stop in waitpid() and writes a keyed
"stopped" line behind the reply, so a reply the program forges ends nothing. The host continues the worker
by sending SIGCONT to the supervisor (and interrupts it with SIGINT), which forwards them.
"""

import _ast
import _json
import _signal as signal
import posix as os
import sys

# Start-up time is the kernel's cold start: the C halves of `ast`, `json`, `signal` and `os` are used
# directly, because the Python modules pull in `re`, `enum` and friends (about 15 ms together). Programs that
# import json, ast, signal or os get the real modules.
CO_COROUTINE = 0x80  # inspect.CO_COROUTINE
PyCF_ONLY_AST = 0x400  # ast.PyCF_ONLY_AST
PyCF_ALLOW_TOP_LEVEL_AWAIT = 0x2000  # ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


class _DecoderContext:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo = None

    @staticmethod
    def parse_constant(name):
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


_scan = _json.make_scanner(_DecoderContext())


def _json_loads(text):
    value, end = _scan(text, 0)
    return value


def _encoder(default):
    return _json.make_encoder({}, default, _json.encode_basestring_ascii, None, ":", ",", False, False, True)


def _refuse(value):
    raise TypeError("Object of type %s is not JSON serializable" % type(value).__name__)


_encode_strict = _encoder(_refuse)
_encode_lenient = _encoder(repr)


def _json_dumps(value, lenient=False):
    return "".join((_encode_lenient if lenient else _encode_strict)(value, 0))

COMMAND_FD = 3
REPLY_FD = 4
HIGH_COMMAND_FD = 1021
HIGH_REPLY_FD = 1022
# The host refuses protocol lines longer than this (kernel-process.ts, MAX_PROTOCOL_LINE_BYTES).
MAX_MESSAGE_BYTES = 32 * 1024 * 1024
# POSIX's minimum PIPE_BUF (Linux's is 4096 too): a write this small to a pipe is never split.
_PIPE_BUF = 512
# What leaves the kernel for the value, the error message and the traceback of one execution (characters;
# the model sees at most 50,000 of the whole output, cut in the middle, so head and tail are kept).
MAX_FIELD_CHARS = 1000000
_tool_specs = {}
_tool_objects = {}
_attribute_names = {}
_execution_count = 0
_tool_call_count = 0
_event_loop = None
# Waiting for a tool's result (_await_result): spin this long before sleeping in read(), when the host's last
# exec or result message allowed it ("spin") and the last results did not come later than that.
_SPIN_NS = 100000
_spin_allowed = False
_spin_pause = 0  # calls left that sleep at once (after late results)
_spin_misses = 0  # late results in a row, up to 6: the pause after one is 2**misses - 1 calls
_poll = None  # (poll, clock) once the first tool call has made them


def _move_fd(fd, target):
    os.dup2(fd, target)
    os.close(fd)
    os.set_inheritable(target, False)
    return target


# Set by _take_descriptors() at the start of main(): importing this module touches no descriptor (the kernel
# template, template.py, imports it once and runs main() in each kernel it forks).
_command_fd = None
_reply_fd = None


def _take_descriptors():
    global _command_fd, _reply_fd
    _command_fd = _move_fd(COMMAND_FD, HIGH_COMMAND_FD)
    _reply_fd = _move_fd(REPLY_FD, HIGH_REPLY_FD)
    _close_inherited()


def _close_inherited():
    # Whoever launched the host may have left descriptors open (not close-on-exec); bwrap passes them on.
    # The program gets 0, 1, 2 and nothing else of ours (the protocol descriptors are above).
    limit = max(os.sysconf("SC_OPEN_MAX"), _reply_fd + 1)
    os.closerange(3, _command_fd)
    os.closerange(_reply_fd + 1, limit)


_command_chunks = []
_command_lines = []


def _apply_limits(limits):
    import resource

    pairs = (
        ("memory_bytes", resource.RLIMIT_AS),
        ("processes", resource.RLIMIT_NPROC),
        ("file_size_bytes", resource.RLIMIT_FSIZE),
        ("cpu_seconds", resource.RLIMIT_CPU),
        ("open_files", resource.RLIMIT_NOFILE),
    )
    for key, which in pairs:
        value = limits.get(key)
        if value:
            try:
                resource.setrlimit(which, (value, value))
            except (ValueError, OSError) as error:
                _send({"t": "warning", "message": "could not set %s: %s" % (key, error)})


def _send(message):
    _send_raw(_json_dumps(message, lenient=True) + "\n")


def _send_raw(text):
    data = text.encode("utf-8", "backslashreplace")
    # A KeyboardInterrupt in the middle of a reply would corrupt the protocol: defer it until the write is done.
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        view = memoryview(data)
        while view:
            written = os.write(_reply_fd, view)
            view = view[written:]
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _receive():
    # Parts of a line are kept in a list and joined once: appending to one bytes object is quadratic.
    while True:
        while _command_lines:
            line = _command_lines.pop(0)
            if line:
                return _json_loads(line.decode("utf-8"))
        chunk = os.read(_command_fd, 1 << 16)
        if not chunk:
            os._exit(0)
        parts = chunk.split(b"\n")
        if len(parts) == 1:
            _command_chunks.append(chunk)
            continue
        _command_chunks.append(parts[0])
        _command_lines.append(b"".join(_command_chunks))
        _command_lines.extend(parts[1:-1])
        _command_chunks[:] = [parts[-1]] if parts[-1] else []


class ToolError(Exception):
    """Raised when a tool call fails: the tool reported an error, or the arguments were invalid."""

    def __init__(self, message, tool=None):
        super().__init__(message)
        self.tool = tool


class UnknownToolError(ToolError, KeyError):
    """A tool name that does not exist; the message lists the ones that do."""

    __str__ = Exception.__str__


class _Tool:
    __slots__ = ("name", "_spec")

    def __init__(self, spec):
        self.name = spec["name"]
        self._spec = spec

    def __call__(self, *args, **kwargs):
        parameters = self._spec["params"]
        if len(args) > len(parameters):
            raise TypeError(
                "%s() takes at most %d positional arguments (%d given); signature: %s"
                % (self.name, len(parameters), len(args), self._spec["signature"])
            )
        for parameter, value in zip(parameters, args):
            if parameter in kwargs:
                raise TypeError("%s() got multiple values for argument '%s'" % (self.name, parameter))
            kwargs[parameter] = value
        return _call_tool(self.name, kwargs)

    def __repr__(self):
        return "<tool %s>" % self._spec["signature"]

    @property
    def __doc__(self):
        return self._spec["doc"]


def _call_tool(name, arguments):
    global _tool_call_count, _spin_allowed
    try:
        payload = _json_dumps(arguments)
    except (TypeError, ValueError) as error:
        raise ToolError("%s: arguments must be JSON-serializable (%s)" % (name, error), name) from None
    encoded_name = _json_dumps(name)
    if len(payload) + len(encoded_name) + 64 > MAX_MESSAGE_BYTES:
        raise ToolError(
            "%s: the arguments are %d bytes as JSON; one tool call can carry at most %d MiB"
            % (name, len(payload), MAX_MESSAGE_BYTES >> 20),
            name,
        )
    _tool_call_count += 1
    call_id = _tool_call_count
    # The arguments are serialised once, straight into the message.
    line = '{"t":"call","id":%d,"name":%s,"args":%s}\n' % (call_id, encoded_name, payload)
    if len(line) <= _PIPE_BUF:
        # One write of at most PIPE_BUF bytes to a pipe is atomic: a KeyboardInterrupt comes before it (nothing
        # written) or after it (all written), never in between, so _send_raw's signal mask is not needed.
        os.write(_reply_fd, line.encode("ascii"))
    else:
        _send_raw(line)
    _await_result()
    while True:
        message = _receive()
        if message.get("t") == "result" and message.get("id") == call_id:
            break
    _spin_allowed = message.get("spin") is True
    if message.get("ok"):
        return message.get("value")
    raise ToolError(message.get("error") or "tool call failed", name)


def _await_result():
    """Spins up to _SPIN_NS for the host's next line before _receive() sleeps in read().

    A pipe read that sleeps makes the host's write wake this process: on a VM that is an interprocessor
    interrupt and a wake-up from idle, about 60 us of the round trip and 25 us of the host's CPU per call when
    one episode calls tools in a loop (issue 8). Spinning (poll with no timeout, yielding the CPU between
    polls) skips both, but only while the kernel has a core to itself: the host allows it in each exec and
    result message (kernel.ts, maySpin: no more kernels running programs than cores beside its own thread),
    and a result that came later than the spin anyway (a slow tool, a machine busy otherwise) pauses spinning
    for 1, 3, 7, ... 63 calls, as a spinning lock backs off."""
    global _spin_pause, _spin_misses, _poll
    if _command_lines or not _spin_allowed:
        return
    if _spin_pause:
        _spin_pause -= 1
        return
    if _poll is None:
        import select
        from time import monotonic_ns

        poller = select.poll()
        poller.register(_command_fd, select.POLLIN)
        _poll = (poller.poll, monotonic_ns)
    poll, clock = _poll
    yield_cpu = os.sched_yield
    deadline = clock() + _SPIN_NS
    while not poll(0):
        if clock() > deadline:
            _spin_misses = min(_spin_misses + 1, 6)
            _spin_pause = (1 << _spin_misses) - 1
            return
        yield_cpu()
    _spin_misses = 0


class _Tools:
    """The environment's tools. Call them as tools["name"](**kwargs) or tools.name(...)."""

    def __getitem__(self, name):
        tool = _tool_objects.get(name)
        if tool is None:
            raise UnknownToolError(_unknown_tool_message(name), name) from None
        return tool

    def __getattr__(self, attribute):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        name = _attribute_names.get(attribute)
        if name is None:
            raise AttributeError(_unknown_tool_message(attribute)) from None
        return _tool_objects[name]

    def __contains__(self, name):
        return name in _tool_specs

    def __iter__(self):
        return iter(sorted(_tool_specs))

    def __len__(self):
        return len(_tool_specs)

    def __dir__(self):
        return sorted(_attribute_names)

    def keys(self):
        return sorted(_tool_specs)

    def __repr__(self):
        if not _tool_specs:
            return "tools: (none)"
        lines = ["tools (%d): call as tools[\"name\"](**kwargs); help(tools.name) shows the docs" % len(_tool_specs)]
        for name in sorted(_tool_specs):
            lines.append("  " + _tool_specs[name]["signature"])
        return "\n".join(lines)


def _unknown_tool_message(name):
    available = ", ".join(sorted(_tool_specs)) or "(none)"
    return "Unknown tool %r. Available tools: %s" % (name, available)


_builtin_help = None


def _help(target=None, *args, **kwargs):
    if isinstance(target, _Tool):
        print(target._spec["signature"])
        print()
        print(target._spec["doc"])
        return None
    if isinstance(target, _Tools):
        print(repr(target))
        return None
    import pydoc

    return pydoc.help(target, *args, **kwargs) if target is not None else pydoc.help()


tools = _Tools()
_globals = {"__name__": "__main__", "__builtins__": __builtins__, "tools": tools, "ToolError": ToolError}


def _restore_reserved_names():
    if _globals.get("tools") is not tools:
        _globals["tools"] = tools
    if _globals.get("ToolError") is not ToolError:
        _globals["ToolError"] = ToolError
    _globals["help"] = _help


def _setup_streams():
    import io

    sys.stdout = io.TextIOWrapper(
        open(1, "wb", buffering=0, closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True
    )
    sys.stderr = io.TextIOWrapper(
        open(2, "wb", buffering=0, closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True
    )
    sys.__stdout__ = sys.stdout
    sys.__stderr__ = sys.stderr
    sys.stdin = open("/dev/null")
    _streams[:] = [sys.stdout, sys.stderr]


_streams = []


def _flush_streams():
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except Exception:
            pass


_sources = {}


def _compile_cell(code, filename):
    # Sources go to linecache only when a traceback needs them (linecache costs start-up time).
    _sources[filename] = code
    flags = PyCF_ALLOW_TOP_LEVEL_AWAIT
    tree = compile(code, filename, "exec", flags | PyCF_ONLY_AST, dont_inherit=True)
    trailing = None
    if tree.body and isinstance(tree.body[-1], _ast.Expr):
        trailing = _ast.Expression(tree.body.pop().value)
    body = compile(tree, filename, "exec", flags, dont_inherit=True)
    expression = compile(trailing, filename, "eval", flags, dont_inherit=True) if trailing is not None else None
    return body, expression


def _run_code(code_object):
    result = eval(code_object, _globals)
    if code_object.co_flags & CO_COROUTINE:
        result = _loop().run_until_complete(result)
    return result


def _loop():
    global _event_loop
    if _event_loop is None:
        import asyncio

        _event_loop = asyncio.new_event_loop()
        asyncio.set_event_loop(_event_loop)
    return _event_loop


def _format_error(error, filename_prefix):
    import linecache
    import traceback

    for filename, code in _sources.items():
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)

    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename.startswith(filename_prefix)]
    lines = []
    if frames:
        lines.append("Traceback (most recent call last):\n")
        lines.extend(traceback.format_list(frames))
    lines.extend(traceback.format_exception_only(type(error), error))
    text = "".join(lines)
    if isinstance(error, NameError):
        name = getattr(error, "name", None)
        hint = _bare_name_hint(name)
        if hint:
            text += hint + "\n"
    return text


def _bare_name_hint(name):
    if not name:
        return None
    if name == "claim_done":
        return "Hint: claim_done is not available inside the code; call the claim_done tool directly to finish."
    if name in _tool_specs or name in _attribute_names:
        real = _attribute_names.get(name, name)
        return 'Hint: tools are not global functions. Call it as tools["%s"](...) or tools.%s(...).' % (
            real,
            _tool_specs[real]["attr"],
        )
    return None


def _execute(message):
    global _execution_count, _spin_allowed
    _execution_count += 1
    _spin_allowed = message.get("spin") is True
    filename = "<cell-%d>" % _execution_count
    _restore_reserved_names()
    if sys.stdout is not _streams[0] or sys.stderr is not _streams[1] or _streams[0].closed or _streams[1].closed:
        _setup_streams()
    calls_before = _tool_call_count
    reply = {"t": "done", "id": message["id"], "value": None, "error": None}
    try:
        try:
            body, expression = _compile_cell(message["code"], filename)
            _run_code(body)
            if expression is not None:
                value = _run_code(expression)
                if value is not None:
                    _globals["_"] = value
                    reply["value"] = _bounded(_safe_repr(value))
        except BaseException as error:  # the program's errors, KeyboardInterrupt and SystemExit included
            reply["error"] = {
                "type": _bounded(type(error).__name__),
                "message": _bounded(_safe_str(error)),
                "traceback": _bounded(_format_error(error, "<cell-")),
            }
    except KeyboardInterrupt:
        # Interrupted while reporting the program's own error: report the interrupt itself.
        reply["error"] = {"type": "KeyboardInterrupt", "message": "", "traceback": "KeyboardInterrupt\n"}
    # From here until the reply is written an interrupt must not escape, or the host would never hear back.
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        _flush_streams()
        reply["tool_calls"] = _tool_call_count - calls_before
        _send(reply)
        # The stop is what ends the execution for the host (the reply alone could be forged); an interrupt
        # that arrives now stays pending until the next command continues the worker.
        _stop_self()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _bounded(text):
    """Keeps head and tail of a long text, so what the model finally sees (cut in the middle) is unchanged."""
    if not isinstance(text, str):
        text = "<%s>" % type(text).__name__
    elif type(text) is not str:
        text = "" + text  # an exact str: a subclass could lie about its length
    if len(text) <= MAX_FIELD_CHARS:
        return text
    head = MAX_FIELD_CHARS * 7 // 10
    tail = MAX_FIELD_CHARS - head
    return "%s\n... [%d characters omitted in the kernel] ...\n%s" % (text[:head], len(text) - head - tail, text[-tail:])


def _safe_repr(value):
    try:
        return repr(value)
    except Exception as error:
        return "<repr failed: %s: %s>" % (type(error).__name__, error)


def _safe_str(error):
    try:
        return str(error)
    except Exception:
        return "<unprintable %s>" % type(error).__name__


def _init(message):
    _tool_specs.clear()
    _tool_objects.clear()
    _attribute_names.clear()
    for spec in message.get("tools", []):
        _tool_specs[spec["name"]] = spec
        _tool_objects[spec["name"]] = _Tool(spec)
        _attribute_names[spec["attr"]] = spec["name"]


# The programs a `run` command may start (the terminal meta-tool), by name: the second wall behind the host's check.
_COMMAND_PROGRAMS = {
    "ls": ("/usr/bin/ls", "/bin/ls"),
    "find": ("/usr/bin/find", "/bin/find"),
    "cat": ("/usr/bin/cat", "/bin/cat"),
}
_COMMAND_ENVIRONMENT = {b"PATH": b"/usr/bin:/bin", b"LC_ALL": b"C.UTF-8", b"HOME": b"/workspace"}
_workspace_fd = None


def _run_command(message):
    """Runs one allowed program with an argv list (never a shell) in the workspace, whatever the program's cwd.

    Its output goes to fd 1 and 2 like a cell's, so the host composes it the same way. An interrupt (the
    host's deadline) kills the program and is reported as KeyboardInterrupt."""
    reply = {"t": "done", "id": message.get("id"), "value": None, "error": None, "tool_calls": 0, "exit_code": None}
    argv = message.get("argv")
    pid = None
    try:
        try:
            if (
                not isinstance(argv, list)
                or not argv
                or not all(isinstance(item, str) for item in argv)
                or argv[0] not in _COMMAND_PROGRAMS
            ):
                raise PermissionError("only %s can run here" % ", ".join(sorted(_COMMAND_PROGRAMS)))
            program = next((path for path in _COMMAND_PROGRAMS[argv[0]] if _is_file(path)), None)
            if program is None:
                raise FileNotFoundError("%s is not installed in the sandbox" % argv[0])
            _flush_streams()
            previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            here = os.open(".", os.O_RDONLY)
            try:
                os.fchdir(_workspace_fd)
                pid = os.posix_spawn(
                    program,
                    argv,
                    _COMMAND_ENVIRONMENT,
                    file_actions=[(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0)],
                    setsigmask=(),
                    setsigdef=(signal.SIGINT,),
                )
            finally:
                os.fchdir(here)
                os.close(here)
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)
            _, status = os.waitpid(pid, 0)
            pid = None
            reply["exit_code"] = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
        except OSError as error:
            reply["error"] = {
                "type": type(error).__name__,
                "message": _safe_str(error),
                "traceback": "%s: %s\n" % (type(error).__name__, _safe_str(error)),
            }
    except KeyboardInterrupt:
        reply["error"] = {"type": "KeyboardInterrupt", "message": "", "traceback": ""}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        if pid is not None:
            try:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
            except OSError:
                pass
        _send(reply)
        _stop_self()  # as after an execution: the stop, not the reply, ends the command for the host
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _is_file(path):
    try:
        return (os.stat(path).st_mode & 0o170000) == 0o100000
    except OSError:
        return False


def _is_directory(path):
    try:
        return (os.stat(path).st_mode & 0o170000) == 0o040000
    except OSError:
        return False


def _emulate_site():
    """Started with -S (site costs ~8 ms): add the distribution's package directories and exit()/quit()."""
    import builtins

    version = "%d.%d" % sys.version_info[:2]
    for prefix in ("/usr/local", sys.prefix):
        for candidate in (
            "%s/lib/python%s/dist-packages" % (prefix, version),
            "%s/lib/python3/dist-packages" % prefix,
            "%s/lib/python%s/site-packages" % (prefix, version),
        ):
            if candidate not in sys.path and _is_directory(candidate):
                sys.path.append(candidate)

    def _exit(code=None):
        raise SystemExit(code)

    builtins.exit = builtins.quit = _exit


def _stop_self():
    os.kill(os.getpid(), signal.SIGSTOP)


def _rehearse():
    """Runs an execution's path once, on scratch state, before the worker's first stop.

    The worker shares its pages with the supervisor (and a template kernel with its template) until it writes
    to them; the first program would pay for copying every page the execution path touches (a first round took
    6-7 ms against 1 ms for later ones, half of it here). Paid here, it is part of the start, which a warm
    kernel has behind it. Nothing of it is left for the program to see: no `_`, no cell, no names."""
    scratch = {"__builtins__": __builtins__}
    body, expression = _compile_cell("[1]", "<rehearsal>")
    _sources.pop("<rehearsal>", None)
    eval(body, scratch)
    _bounded(_safe_repr(eval(expression, scratch)))
    _json_dumps(_json_loads('{"t": "exec", "id": 0, "code": "1", "spin": false}'))
    _json_dumps({"t": "done", "id": 0, "value": "1", "error": None, "tool_calls": 0}, lenient=True)
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    _flush_streams()


def _worker_main():
    _rehearse()
    _stop_self()  # the supervisor reports the first stop as "ready"
    while True:
        try:
            message = _receive()
            kind = message.get("t")
            if kind == "exec":
                _execute(message)
            elif kind == "run":
                _run_command(message)
            elif kind == "init":
                _init(message)
                _send({"t": "ok", "id": message.get("id")})
            elif kind == "ping":
                _send({"t": "pong", "id": message.get("id")})
        except KeyboardInterrupt:
            # An interrupt that arrived after the execution finished: nothing to interrupt.
            continue


def _prctl_function():
    """prctl from the C library as a Python callable, or the exception that says why there is none.

    Looked up before the fork (_start_worker): importing _ctypes runs the import machinery and builds its types,
    and done in the supervisor after the fork it copied about 0.35 MB of the pages it shares with the worker
    into both of them (issue 8). Called without argument types, as before: every argument is a C int."""
    try:
        import _ctypes

        handle = _ctypes.dlopen(None)
        call = getattr(_ctypes, "call_function", None)
        if call is not None:
            address = _ctypes.dlsym(handle, "prctl")
            return lambda *arguments: call(address, arguments)

        # An interpreter without the private call_function: a foreign function object, as ctypes builds one.
        class _Int(_ctypes._SimpleCData):
            _type_ = "i"

        class _Function(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL
            _restype_ = _Int

        class _Library:
            _handle = handle

        return _Function(("prctl", _Library()))
    except Exception as error:
        return error


def _set_not_dumpable(prctl):
    """prctl(PR_SET_DUMPABLE, 0): the worker (same uid) can then open neither /proc/<pid>/fd nor /proc/<pid>/mem."""
    try:
        if isinstance(prctl, Exception):
            raise prctl
        if prctl(4, 0, 0, 0, 0) != 0 or prctl(3, 0, 0, 0, 0) != 0:
            raise OSError("prctl(PR_SET_DUMPABLE, 0) failed")
    except Exception as error:
        _send({"t": "warning", "message": "the protocol supervisor is dumpable: %s" % error})


def _keyed_line(message, key):
    message["key"] = key
    # The leading newline ends any partial line the program left in the pipe.
    return ("\n" + _json_dumps(message, lenient=True) + "\n").encode("utf-8", "backslashreplace")


def _write_all(fd, data):
    while data:
        data = data[os.write(fd, data) :]


def _read_key(worker):
    """The key from the host's first command line, read byte by byte (the rest of the pipe belongs to the worker)."""
    parts = []
    while True:
        byte = os.read(_command_fd, 1)
        if not byte:
            os.kill(worker, signal.SIGKILL)
            os._exit(0)
        if byte == b"\n":
            break
        parts.append(byte)
    os.close(_command_fd)
    return _json_loads(b"".join(parts).decode("utf-8")).get("key")


def _supervise(worker):
    """Watches the worker: reports its stops, continues and interrupts it for the host, reports its end.

    One function with its state in local variables, and the line for a stop made once: whatever the supervisor
    touches after the fork is copied out of the pages it shares with the worker, so it touches little (issue 8).
    Signals are taken with sigwaitinfo, which says who sent them: only the host's SIGCONT and SIGINT count (sent
    from outside the PID namespace, si_pid is 0; without one, the host is the parent). SIGINT stays blocked, so
    nothing interrupts a write."""
    sigchld, sigcont, sigint = signal.SIGCHLD, signal.SIGCONT, signal.SIGINT
    watched = {sigchld, sigcont, sigint}
    signal.pthread_sigmask(signal.SIG_BLOCK, watched)
    host = os.getppid()
    flags = os.WNOHANG | os.WUNTRACED | os.WCONTINUED
    waitpid, kill, sigwaitinfo = os.waitpid, os.kill, signal.sigwaitinfo
    reply_fd = _reply_fd
    key = None
    stopped_line = None
    stopped = False
    expect_continue = False
    reap = True  # the worker may have stopped before SIGCHLD was blocked
    while True:
        while reap:
            try:
                pid, status = waitpid(-1, flags)
            except ChildProcessError:
                os._exit(1)
            if pid == 0:
                break
            if pid != worker:
                continue  # an orphan the supervisor inherited as PID 1
            if os.WIFSTOPPED(status):
                stopped = True
                # A stop means the worker ran since any continue the supervisor sent, whether or not waitpid
                # reported that continue: a worker that runs its command and stops again before the supervisor
                # reaps shows only the stop. Expecting the continue still would let the program's next resume
                # through unreported.
                expect_continue = False
                if key is None:
                    key = _read_key(worker)
                    stopped_line = _keyed_line({"t": "stopped"}, key)
                    _write_all(reply_fd, _keyed_line({"t": "ready", "pid": worker}, key))
                else:
                    _write_all(reply_fd, stopped_line)
            elif os.WIFCONTINUED(status):
                if not expect_continue:
                    # A process of the program resumed the worker after its execution ended.
                    message = {"t": "violation", "message": "a process of the program resumed the kernel after an execution ended"}
                    _write_all(reply_fd, _keyed_line(message, key))
                expect_continue = False
            else:
                exited = os.WIFEXITED(status)
                message = {
                    "t": "exited",
                    "code": os.WEXITSTATUS(status) if exited else None,
                    "signal": None if exited else os.WTERMSIG(status),
                }
                _write_all(reply_fd, _keyed_line(message, key))
                os._exit(os.WEXITSTATUS(status) if exited else 128 + os.WTERMSIG(status))
        info = sigwaitinfo(watched)
        signo = info.si_signo
        reap = signo == sigchld
        if reap or (info.si_pid != 0 and info.si_pid != host):
            continue
        try:
            if signo == sigint:
                kill(worker, sigint)
            if stopped and key is not None:
                stopped = False
                expect_continue = True
                kill(worker, sigcont)
        except OSError:
            if signo != sigint:
                raise


def _start_worker():
    """Forks the worker; returns in the supervisor only."""
    import gc

    prctl = _prctl_function()
    # Collections in the worker skip what exists now, so they do not copy the pages the two processes share.
    gc.freeze()
    worker = os.fork()
    if worker == 0:
        try:
            _worker_main()
        finally:
            os._exit(1)
    gc.disable()  # the supervisor makes no cycles; a collection would copy the shared pages it visits
    _set_not_dumpable(prctl)
    _supervise(worker)


def _yield_to_host():
    # Every process of the sandbox runs as SCHED_BATCH (inherited by the worker and whatever the program
    # starts): the same CPU share as before, but a kernel woken by a tool result never preempts the host's
    # one thread that serves all kernels; the host finishes its turn first (issue 8: 32 kernels on 2 cores).
    try:
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    except (AttributeError, OSError):
        pass  # not Linux, or refused: scheduling stays as it was


def main():
    _take_descriptors()
    if sys.argv and sys.argv[0].endswith(".pyc"):
        sys.argv[0] = sys.argv[0][:-1]  # run compiled (compiled-bootstrap.ts): programs see the source's path
    _yield_to_host()
    if sys.flags.no_site:
        _emulate_site()
    _setup_streams()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    limits = _json_loads(os.environ.pop(b"PROGAGENT_LIMITS", b"{}").decode("utf-8"))
    os.unsetenv(b"PROGAGENT_LIMITS")
    _apply_limits(limits)
    sys.path.insert(0, os.getcwd())
    global _workspace_fd
    _workspace_fd = _move_fd(os.open(".", os.O_RDONLY), 1020)
    _start_worker()


if __name__ == "__main__":
    main()
