"""progagent_rl.launcher: one rollout service per Ray node, owned, checked and ended with the training command.

Ray is the stand-in in engine_stubs/ray (nodes are named in PROGAGENT_FAKE_RAY_NODES, actors run in this process);
one test starts the real `progagent rollout serve` (PROGAGENT_CLI), the others a stand-in service
(fixtures/fake_progagent.py) since they test process ownership, not the service.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import sys
import time
import unittest
import urllib.request
from typing import List
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from progagent_rl import launcher  # noqa: E402

FAKE_CLI = f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'fixtures', 'fake_progagent.py'))}"


def fake_ray():
    """engine_stubs/ray, imported without putting the other stand-ins on the path."""
    sys.path.insert(0, os.path.join(HERE, "engine_stubs"))
    try:
        import ray  # noqa: WPS433
    finally:
        sys.path.pop(0)
    return ray


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=5) as answer:
            return bool(json.loads(answer.read()).get("ok"))
    except OSError:
        return False


def probe_command(url: str, exit_code: int) -> List[str]:
    """A training command that exits with `exit_code` only when it was handed `url` and the service answers."""
    script = (
        "import json, os, sys, urllib.request\n"
        f"assert os.environ['PROGAGENT_ROLLOUT_URLS'] == {url!r}, os.environ['PROGAGENT_ROLLOUT_URLS']\n"
        f"assert json.loads(urllib.request.urlopen({url!r} + '/healthz', timeout=10).read())['ok']\n"
        "import time; time.sleep(1)\n"  # long enough for the launcher's service checks to run
        f"sys.exit({exit_code})\n"
    )
    return [sys.executable, "-c", script]


class LauncherTests(unittest.TestCase):
    def test_a_service_per_node_handed_to_the_command_and_ended_with_it(self) -> None:
        ray = fake_ray()
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        cli = os.environ.get("PROGAGENT_CLI", "node bin/progagent.js")
        with mock.patch.dict(sys.modules, {"ray": ray}), mock.patch.dict(os.environ, {"PROGAGENT_FAKE_RAY_NODES": "node-a"}):
            killed_before = len(ray._STATE["killed"])
            status = launcher.main(
                ["--port", str(port), "--cli", cli, "--serve-args", "--max-episodes 8", "--start-timeout", "120",
                 "--check-interval", "0.2", "--", *probe_command(url, 3)]
            )
        self.assertEqual(status, 3)  # the command's own status
        self.assertFalse(answers(url))  # the service ended with the command
        self.assertEqual(len(ray._STATE["killed"]) - killed_before, 1)

    def test_a_service_whose_process_exited_is_restarted(self) -> None:
        port = free_port()
        service = launcher.RolloutService(shlex.split(FAKE_CLI), port, 30, ["--warm-kernels", "2"])
        try:
            self.assertEqual(service.ensure_running(), "running")
            os.kill(service.process.pid, signal.SIGKILL)
            service.process.wait(10)
            self.assertIn("restarted", service.ensure_running())
            self.assertTrue(answers(service.url))
            self.assertEqual(service.describe()["restarts"], 1)
        finally:
            service.stop()
        self.assertFalse(answers(service.url))

    def test_without_ray_one_local_service(self) -> None:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        environ = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
        with mock.patch.dict(sys.modules, {"ray": None}), mock.patch.dict(os.environ, environ, clear=True):
            status = launcher.main(["--port", str(port), "--cli", FAKE_CLI, "--", *probe_command(url, 0)])
        self.assertEqual(status, 0)
        self.assertFalse(answers(url))

    def test_a_service_that_cannot_come_back_stops_the_run(self) -> None:
        def check() -> List[str]:
            raise RuntimeError("exited with 1 and did not answer /healthz")

        started = time.monotonic()
        status = launcher.run_command([sys.executable, "-c", "import time; time.sleep(120)"], dict(os.environ), check, 0.2)
        self.assertEqual(status, 1)
        self.assertLess(time.monotonic() - started, 60)  # the command was stopped, not waited for

    def test_restarts_are_reported_and_the_command_runs_on(self) -> None:
        calls: List[int] = []

        def check() -> List[str]:
            calls.append(1)
            return ["rollout service on node node-a: restarted (it had exited with -9)"] if len(calls) == 1 else []

        command = [sys.executable, "-c", "import time; time.sleep(1.0)"]
        self.assertEqual(launcher.run_command(command, dict(os.environ), check, 0.1), 0)
        self.assertGreater(len(calls), 1)


if __name__ == "__main__":
    unittest.main()
