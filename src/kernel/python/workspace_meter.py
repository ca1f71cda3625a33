"""Workspace meter: one small long-lived process per host process that measures workspaces (stdlib only).

Why: the host checks a kernel's disk budget by walking its workspace after every program, and Node has no
fstatat, so its walk reached each entry through /proc/self/fd/N/name: about 1 ms of the host's one thread per
walk of a v3 workspace (50 entries), 27% of that thread in a burst of 512 episodes (issue 8). Here each entry
costs one getdents share and one fstatat on the directory's descriptor, off the host's thread.

The walk is the host's (workspace-usage.ts) with the same guarantees against a tree that model code changes
while it is walked: every directory is opened with O_NOFOLLOW|O_DIRECTORY relative to its parent's descriptor
and read through it, entries are stat'ed without following links, so a link swapped in never leads the walk
outside the tree, and a FIFO is never opened; each inode counts once (hard links). It is bounded: at most
`max` entries and MAX_DEPTH levels, and a walk that stops early or cannot open or read a directory says it is
incomplete and why (its bytes are then a lower bound, never a measurement).

    workspace_meter.py <host pid>

Requests on stdin and replies on stdout, one JSON object a line:
  {"id": n, "path": absolute path, "max": entries}
      -> {"id": n, "bytes": b, "entries": e, "incomplete": bool, "reason": text when incomplete}
         (a root that is gone or not a directory measures 0; any other failure is incomplete, with its reason)
      -> {"id": n, "error": text}
Walks in flight take turns, ENTRIES_PER_TURN entries each, so a huge workspace delays the others by a turn.
The meter ends when the host closes stdin or dies (parent-death signal).
"""

import errno
import json
import os
import resource
import select
import stat
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launch  # noqa: E402  (bind_to_host)

ENTRIES_PER_TURN = 256
# Deeper directories are not walked: the measurement is then incomplete (never under budget).
MAX_DEPTH = 128
GONE = (errno.ENOENT, errno.ENOTDIR, errno.ELOOP)
DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def walk(root, max_entries):
    """Yields None after every ENTRIES_PER_TURN entries, then the usage as a reply's fields."""
    usage = {"bytes": 0, "entries": 0, "incomplete": False}
    try:
        top = os.open(root, DIRECTORY_FLAGS)
    except OSError as error:
        if error.errno not in GONE:
            usage.update(incomplete=True, reason="the workspace could not be opened (%s)" % errno_name(error))
        yield usage  # a root that is not a directory (any more), or is gone, holds nothing
        return
    seen = set()
    # Depth first: a stack of open directories, each with the names it still has to visit. The names are read at
    # once (listdir on the descriptor), so a level holds one descriptor; the depth is bounded, so a walk holds at
    # most MAX_DEPTH of them however deep the tree, and one workspace cannot use up the meter's descriptors.
    stack = []
    turn = 0
    try:
        stack.append([top, iter(os.listdir(top))])
        while stack:
            fd, names = stack[-1]
            name = next(names, None)
            if name is None:
                stack.pop()
                os.close(fd)
                continue
            if usage["entries"] >= max_entries:
                usage.update(incomplete=True, reason="more than %d entries" % max_entries)
                break
            usage["entries"] += 1
            try:
                status = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                continue  # removed meanwhile
            key = (status.st_dev, status.st_ino)
            if key not in seen:
                seen.add(key)
                usage["bytes"] += status.st_blocks * 512
            if stat.S_ISDIR(status.st_mode):
                if len(stack) >= MAX_DEPTH:
                    usage.update(incomplete=True, reason="directories nested deeper than %d" % MAX_DEPTH)
                    break
                try:
                    child = os.open(name, DIRECTORY_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    continue
                try:
                    stack.append([child, iter(os.listdir(child))])
                except OSError:
                    os.close(child)
                    raise
            turn += 1
            if turn >= ENTRIES_PER_TURN:
                turn = 0
                yield None
    except OSError as error:
        # A directory that cannot be opened or read leaves what it holds uncounted: never "complete".
        usage.update(incomplete=True, reason="a directory could not be read (%s)" % errno_name(error))
    finally:
        for frame in stack:
            os.close(frame[0])
    yield usage


def errno_name(error):
    return errno.errorcode.get(error.errno, str(error.errno)) if error.errno else type(error).__name__


def raise_descriptor_limit():
    """Walks in flight share this process's descriptors: take all the host allows."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or hard > 1 << 20:
            hard = 1 << 20
        if soft != resource.RLIM_INFINITY and soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (OSError, ValueError):
        pass


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
    raise_descriptor_limit()
    serve()


if __name__ == "__main__":
    main(sys.argv[1:])
