"""Workspace meter: one small long-lived process per host process that measures workspaces (stdlib only).

Why: the host checks a kernel's disk budget by walking its workspace after every program, and Node has no
fstatat, so its walk reached each entry through /proc/self/fd/N/name: about 1 ms of the host's one thread per
walk of a v3 workspace (50 entries), 27% of that thread in a burst of 512 episodes (issue 8). Here each entry
costs one getdents share and one fstatat on the directory's descriptor, off the host's thread.

The walk is the host's (workspace-usage.ts) with the same guarantees against a tree that model code changes
while it is walked: every directory is opened with O_NOFOLLOW|O_DIRECTORY relative to its parent's descriptor
and read through it, entries are stat'ed without following links, so a link swapped in never leads the walk
outside the tree, and a FIFO is never opened; each inode counts once (hard links).

    workspace_meter.py <host pid>

Requests on stdin and replies on stdout, one JSON object a line:
  {"id": n, "path": absolute path, "max": entries}
      -> {"id": n, "bytes": b, "entries": e, "incomplete": bool}     (a root that cannot be opened measures 0)
      -> {"id": n, "error": text}
Walks in flight take turns, ENTRIES_PER_TURN entries each, so a huge workspace delays the others by a turn.
The meter ends when the host closes stdin or dies (parent-death signal).
"""

import json
import os
import select
import stat
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launch  # noqa: E402  (bind_to_host)

ENTRIES_PER_TURN = 256
DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def open_directory(name, dir_fd=None):
    try:
        return os.open(name, DIRECTORY_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None  # not a directory (any more), or gone: nothing to walk


def walk(root, max_entries):
    """Yields None after every ENTRIES_PER_TURN entries, then the usage as a reply's fields."""
    usage = {"bytes": 0, "entries": 0, "incomplete": False}
    top = open_directory(root)
    if top is None:
        yield usage
        return
    seen = set()
    # Depth first: a stack of open directories, each with its listing iterator once opened.
    stack = [[top, None]]
    turn = 0
    try:
        while stack:
            frame = stack[-1]
            entry = None
            try:
                if frame[1] is None:
                    frame[1] = os.scandir(frame[0])
                entry = next(frame[1], None)
            except OSError:
                entry = None
            if entry is None:
                stack.pop()
                if frame[1] is not None:
                    frame[1].close()
                os.close(frame[0])
                continue
            if usage["entries"] >= max_entries:
                usage["incomplete"] = True
                break
            usage["entries"] += 1
            try:
                status = os.stat(entry.name, dir_fd=frame[0], follow_symlinks=False)
            except OSError:
                continue
            key = (status.st_dev, status.st_ino)
            if key not in seen:
                seen.add(key)
                usage["bytes"] += status.st_blocks * 512
            if stat.S_ISDIR(status.st_mode):
                child = open_directory(entry.name, frame[0])
                if child is not None:
                    stack.append([child, None])
            turn += 1
            if turn >= ENTRIES_PER_TURN:
                turn = 0
                yield None
    finally:
        for frame in stack:
            if frame[1] is not None:
                frame[1].close()
            os.close(frame[0])
    yield usage


def send(message):
    data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
    view = memoryview(data)
    while view:
        view = view[os.write(1, view) :]


def start(request):
    ident = request.get("id")
    path = request.get("path")
    limit = request.get("max")
    if not isinstance(path, str) or not os.path.isabs(path) or not isinstance(limit, int) or limit < 0:
        send({"id": ident, "error": "expected an absolute 'path' and a non-negative integer 'max'"})
        return None
    return ident, walk(path, limit)


def serve():
    pending = b""
    walks = []  # [id, generator] taking turns
    while True:
        readable, _, _ = select.select([0], [], [], 0 if walks else None)
        if readable:
            chunk = os.read(0, 1 << 16)
            if not chunk:
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if not line.strip():
                    continue
                try:
                    request = json.loads(line)
                except ValueError:
                    send({"id": None, "error": "a request line is not JSON"})
                    continue
                started = start(request) if isinstance(request, dict) else None
                if started:
                    walks.append(list(started))
        if walks:
            ident, generator = walks.pop(0)
            try:
                result = next(generator)
            except Exception as error:  # noqa: BLE001  (one walk's failure is its reply, not the meter's end)
                send({"id": ident, "error": "%s: %s" % (type(error).__name__, error)})
                continue
            if result is None:
                walks.append([ident, generator])
            else:
                result["id"] = ident
                send(result)


def main(argv):
    launch.bind_to_host(argv)
    serve()


if __name__ == "__main__":
    main(sys.argv[1:])
