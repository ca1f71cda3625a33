"""Start one `progagent rollout serve` per Ray node, run a training command, end the services with it.

    python -m progagent_rl.launcher [--port 8700] [--max-episodes 1024] [--cli progagent] -- <command...>

Connects to the Ray cluster (RAY_ADDRESS, else a local one), places one actor on every alive node (a hard node
affinity), each owning a child `progagent rollout serve` on that node's loopback interface, and waits until
every service answers /healthz (deadline --start-timeout). The command then runs with
PROGAGENT_ROLLOUT_URLS=http://127.0.0.1:<port> (each node's agent loops reach their own node's service) and
RAY_ADDRESS set; when it ends (or this process is interrupted) every service is stopped and the actors killed.
A service dies with its actor (parent-death signal), so a crashed launcher leaves nothing behind.
Nodes that join after the start have no service. Exit status: the command's.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from typing import Any, Dict, List, Optional, Sequence


def _die_with_parent() -> None:
    """Runs in the child before exec: SIGTERM when the actor process that started it exits (Linux)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class RolloutService:
    """One node's service: the child process and its URL (a Ray actor in the launcher)."""

    def __init__(self, command: List[str], port: int, start_timeout_s: float):
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [*command, "rollout", "serve", "--host", "127.0.0.1", "--port", str(port)],
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + start_timeout_s
        while not self.healthy():
            if self.process.poll() is not None:
                raise RuntimeError(f"`{shlex.join(command)} rollout serve` exited with {self.process.returncode}")
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"{self.url} did not answer /healthz within {start_timeout_s:g} s")
            time.sleep(0.5)

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=5) as answer:
                return bool(json.loads(answer.read()).get("ok"))
        except (OSError, ValueError):
            return False

    def describe(self) -> Dict[str, Any]:
        return {"url": self.url, "pid": self.process.pid, "healthy": self.healthy()}

    def stop(self, grace_s: float = 30.0) -> Optional[int]:
        if self.process.poll() is None:
            self.process.terminate()  # the service ends its kernels and temp dirs on SIGTERM
            try:
                self.process.wait(grace_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return self.process.returncode

    __ray_terminate__ = stop


def start_services(ray: Any, command: List[str], port: int, start_timeout_s: float) -> Dict[str, Any]:
    """One RolloutService actor per alive node, pinned to it; raises when any fails to start."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    actor_class = ray.remote(num_cpus=0)(RolloutService)
    actors: Dict[str, Any] = {}
    try:
        for node in ray.nodes():
            if not node.get("Alive"):
                continue
            strategy = NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=False)
            actors[node["NodeID"]] = actor_class.options(scheduling_strategy=strategy).remote(command, port, start_timeout_s)
        ray.get([actor.describe.remote() for actor in actors.values()])
    except BaseException:
        stop_services(ray, actors)
        raise
    return actors


def stop_services(ray: Any, actors: Dict[str, Any]) -> None:
    for actor in actors.values():
        try:
            ray.get(actor.stop.remote())
        except Exception:  # noqa: BLE001 - an actor that died took its service with it
            pass
        ray.kill(actor)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        print("usage: python -m progagent_rl.launcher [options] -- <command...>", file=sys.stderr)
        return 2
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m progagent_rl.launcher")
    parser.add_argument("--port", type=int, default=8700)
    parser.add_argument("--cli", default=os.environ.get("PROGAGENT_CLI", "progagent"), help="how to run progagent")
    parser.add_argument("--start-timeout", type=float, default=120.0)
    options = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    if not command:
        parser.error("no command after --")
    import ray

    ray.init(address=os.environ.get("RAY_ADDRESS") or None)
    actors = start_services(ray, shlex.split(options.cli), options.port, options.start_timeout)
    print(f"progagent: {len(actors)} rollout services on port {options.port}", file=sys.stderr)
    env = {
        **os.environ,
        "PROGAGENT_ROLLOUT_URLS": f"http://127.0.0.1:{options.port}",
        "RAY_ADDRESS": os.environ.get("RAY_ADDRESS") or ray.get_runtime_context().gcs_address,
    }
    try:
        return subprocess.call(command, env=env)
    except KeyboardInterrupt:
        return 130
    finally:
        stop_services(ray, actors)


if __name__ == "__main__":
    sys.exit(main())
