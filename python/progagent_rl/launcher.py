"""Start one `progagent rollout serve` per Ray node, run a training command, end the services with it.

    python -m progagent_rl.launcher [--port 8700] [--cli progagent] [--serve-args '--max-episodes 512']
                                    [--check-interval 30] -- <command...>

Connects to the Ray cluster (RAY_ADDRESS, else a local one), places one actor on every alive node (a hard node
affinity), each owning a child `progagent rollout serve` on that node's loopback interface, and waits until
every service answers /healthz (deadline --start-timeout). The command then runs with
PROGAGENT_ROLLOUT_URLS=http://127.0.0.1:<port> (each node's agent loops reach their own node's service) and
RAY_ADDRESS set. While it runs, every --check-interval seconds a service whose process exited is restarted; one
that cannot be restarted stops the run (exit status 1: every episode on its node would score 0). When the command
ends (or this process is interrupted) every service is stopped and the actors killed. A service dies with its
actor (parent-death signal), so a crashed launcher leaves nothing behind. Nodes that join after the start have no
service. Exit status: the command's."""

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
from typing import Any, Callable, Dict, List, Optional, Sequence


def _die_with_parent() -> None:
    """Runs in the child before exec: SIGTERM when the actor process that started it exits (Linux)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class RolloutService:
    """One node's service: the child process and its URL (a Ray actor in the launcher)."""

    def __init__(self, command: List[str], port: int, start_timeout_s: float, serve_args: Sequence[str] = ()):
        self.command, self.port, self.start_timeout_s = list(command), int(port), float(start_timeout_s)
        self.serve_args = list(serve_args)
        self.url = f"http://127.0.0.1:{port}"
        self.restarts = 0
        self.process = self._start()

    def _start(self) -> "subprocess.Popen[bytes]":
        process = subprocess.Popen(
            [*self.command, "rollout", "serve", "--host", "127.0.0.1", "--port", str(self.port), *self.serve_args],
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + self.start_timeout_s
        while not self.healthy():
            if process.poll() is not None:
                raise RuntimeError(f"`{shlex.join(self.command)} rollout serve` exited with {process.returncode}")
            if time.monotonic() > deadline:
                _end(process)
                raise TimeoutError(f"{self.url} did not answer /healthz within {self.start_timeout_s:g} s")
            time.sleep(0.5)
        return process

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=5) as answer:
                return bool(json.loads(answer.read()).get("ok"))
        except (OSError, ValueError):
            return False

    def describe(self) -> Dict[str, Any]:
        return {"url": self.url, "pid": self.process.pid, "healthy": self.healthy(), "restarts": self.restarts}

    def ensure_running(self) -> str:
        """Restarts a service whose process has exited (its episodes are lost: their loops get service errors,
        reward 0). A live but slow service is left alone: under load /healthz may answer late."""
        if self.process.poll() is None:
            return "running"
        code = self.process.returncode
        self.process = self._start()
        self.restarts += 1
        return f"restarted (it had exited with {code})"

    def stop(self, grace_s: float = 30.0) -> Optional[int]:
        return _end(self.process, grace_s)

    __ray_terminate__ = stop


def _end(process: "subprocess.Popen[bytes]", grace_s: float = 30.0) -> Optional[int]:
    if process.poll() is None:
        process.terminate()  # the service ends its kernels and temp dirs on SIGTERM
        try:
            process.wait(grace_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
    return process.returncode


def start_services(
    ray: Any, command: List[str], port: int, start_timeout_s: float, serve_args: Sequence[str] = ()
) -> Dict[str, Any]:
    """One RolloutService actor per alive node, pinned to it; raises when any fails to start."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    actor_class = ray.remote(num_cpus=0)(RolloutService)
    actors: Dict[str, Any] = {}
    try:
        for node in ray.nodes():
            if not node.get("Alive"):
                continue
            strategy = NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=False)
            actors[node["NodeID"]] = actor_class.options(scheduling_strategy=strategy).remote(
                command, port, start_timeout_s, list(serve_args)
            )
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


def check_services(ray: Any, actors: Dict[str, Any]) -> List[str]:
    """Each node's service alive (restarted when its process exited); one line per restart. Raises when a
    service cannot be brought back: every episode on that node would end with reward 0."""
    nodes = list(actors)
    states = ray.get([actors[node].ensure_running.remote() for node in nodes])
    return [f"rollout service on node {node}: {state}" for node, state in zip(nodes, states) if state != "running"]


def run_command(command: List[str], env: Dict[str, str], check: Callable[[], List[str]], check_interval_s: float) -> int:
    """Runs the training command, calling `check` (the services' health) every `check_interval_s`; the command's
    exit status, or 1 when `check` raises (a service that could not be restarted; the command is then stopped)."""
    process = subprocess.Popen(command, env=env)
    try:
        while True:
            try:
                return process.wait(timeout=check_interval_s)
            except subprocess.TimeoutExpired:
                pass
            try:
                for line in check():
                    print(f"progagent: {line}", file=sys.stderr)
            except Exception as error:  # noqa: BLE001 - reported, then the run is stopped
                print(f"progagent: a rollout service is down and did not restart ({error}); stopping the run", file=sys.stderr)
                _end(process)
                return 1
    except KeyboardInterrupt:
        _end(process)
        return 130
    finally:
        if process.poll() is None:
            _end(process)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        print("usage: python -m progagent_rl.launcher [options] -- <command...>", file=sys.stderr)
        return 2
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m progagent_rl.launcher")
    parser.add_argument("--port", type=int, default=8700)
    parser.add_argument("--cli", default=os.environ.get("PROGAGENT_CLI", "progagent"), help="how to run progagent")
    parser.add_argument(
        "--serve-args",
        default=os.environ.get("PROGAGENT_SERVE_ARGS", ""),
        help="more `rollout serve` options, one string (e.g. '--max-episodes 512 --warm-kernels 64')",
    )
    parser.add_argument("--start-timeout", type=float, default=120.0)
    parser.add_argument("--check-interval", type=float, default=30.0, help="seconds between service checks")
    options = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    if not command:
        parser.error("no command after --")
    serve_args = shlex.split(options.serve_args)
    env = {**os.environ, "PROGAGENT_ROLLOUT_URLS": f"http://127.0.0.1:{options.port}"}
    try:
        import ray
    except ImportError:
        if os.environ.get("RAY_ADDRESS"):
            raise SystemExit("RAY_ADDRESS is set but Ray is not installed here (pip install ray)")
        return _run_without_ray(options, serve_args, command, env)
    ray.init(address=os.environ.get("RAY_ADDRESS") or None)
    actors = start_services(ray, shlex.split(options.cli), options.port, options.start_timeout, serve_args)
    print(f"progagent: {len(actors)} rollout services on port {options.port}", file=sys.stderr)
    env["RAY_ADDRESS"] = os.environ.get("RAY_ADDRESS") or ray.get_runtime_context().gcs_address
    try:
        return run_command(command, env, lambda: check_services(ray, actors), options.check_interval)
    finally:
        stop_services(ray, actors)


def _run_without_ray(options: argparse.Namespace, serve_args: List[str], command: List[str], env: Dict[str, str]) -> int:
    """One machine without Ray (e.g. ms-swift's server mode): one service, owned by this process."""
    service = RolloutService(shlex.split(options.cli), options.port, options.start_timeout, serve_args)
    print(f"progagent: Ray is not installed; one rollout service at {service.url}", file=sys.stderr)

    def check() -> List[str]:
        state = service.ensure_running()
        return [] if state == "running" else [f"rollout service: {state}"]

    try:
        return run_command(command, env, check, options.check_interval)
    finally:
        service.stop()


if __name__ == "__main__":
    sys.exit(main())
