"""The trainer adapters against a real `progagent rollout serve` (started here; no GPU, no verl, no ms-swift).

verl and ms-swift are replaced by modules that carry exactly the interface recorded in
shared/design/training.md (names, signatures, fields); the shells must work against them unchanged.
Run: PROGAGENT_CLI="node bin/progagent.js" python3 -m unittest discover -s python/tests
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import subprocess
import sys
import time
import types
import unittest
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from progagent_rl import (  # noqa: E402
    EpisodeSpec,
    RolloutLimits,
    RolloutServiceError,
    ServiceBusyError,
    ServiceClient,
    ServicePool,
    run_token_rollout,
)

TASK = "retail.apply-supplier-recall"
#: The test domain's task (test/fixtures/tiny-suite.ts): OraclePolicy earns reward 1 on it.
TINY = "tiny.deactivate"
MAX_EPISODES = 4


class Service:
    """Owns one `progagent rollout serve` process for the test module."""

    def __init__(self) -> None:
        command = shlex.split(os.environ.get("PROGAGENT_CLI", "node bin/progagent.js"))
        self.process = subprocess.Popen(
            [*command, "rollout", "serve", "--port", "0", "--max-episodes", str(MAX_EPISODES), "--idle-timeout", "3",
             "--suite", os.path.join(os.path.dirname(os.path.dirname(HERE)), "test", "fixtures", "tiny-suite.ts")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=os.environ.get("PROGAGENT_ROOT", os.getcwd()),
        )
        deadline = time.monotonic() + 90
        self.url = ""
        assert self.process.stderr is not None
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                raise RuntimeError(f"rollout serve exited with {self.process.wait()} before listening")
            if "rollout service at " in line:
                self.url = line.split("rollout service at ", 1)[1].split()[0]
                break
        if not self.url:
            self.stop()
            raise RuntimeError("rollout serve did not report its URL within 90 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


SERVICE: Optional[Service] = None


def setUpModule() -> None:
    global SERVICE
    SERVICE = Service()


def tearDownModule() -> None:
    if SERVICE is not None:
        SERVICE.stop()


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 120))


class ScriptedModel:
    """A policy that writes two programs and then claims done, as token ids (via the service's tokenizer)."""

    def __init__(self, client: ServiceClient) -> None:
        self.client = client
        self.turn = 0
        self.texts = [
            '<tool_call>\n{"name": "programmatic_tool_call", "arguments": {"code": "x = 40 + 2\\nprint(x)"}}\n</tool_call><|im_end|>',
            "<think>\nkeep going\n</think>\n\n<tool_call>\n<function=programmatic_tool_call>\n<parameter=code>\nprint(x * 2)\n</parameter>\n</function>\n</tool_call><|im_end|>",
            '<tool_call>\n{"name": "claim_done", "arguments": {"answer": "not the answer"}}\n</tool_call><|im_end|>',
        ]
        self.prompts: List[List[int]] = []

    async def generate(self, prompt_ids: List[int], max_new_tokens: int):
        self.prompts.append(list(prompt_ids))
        text = self.texts[min(self.turn, len(self.texts) - 1)]
        self.turn += 1
        _, answer = await self.client.request("POST", "/v1/tokenize", {"text": text})
        tokens = answer["token_ids"]
        return tokens, [-0.5] * len(tokens)


class ClientTests(unittest.TestCase):
    def test_round_trip_errors_and_release(self) -> None:
        async def scenario() -> None:
            client = ServiceClient(SERVICE.url)
            try:
                health = await client.health()
                self.assertTrue(health["ok"])
                created = await client.create_episode({"task": TASK, "scale": "v0", "mode": "ptc"})
                episode_id = created["episode_id"]
                self.assertEqual([m["role"] for m in created["messages"]], ["system", "user"])
                names = [tool["function"]["name"] for tool in created["tools"]]
                self.assertIn("programmatic_tool_call", names)
                step = await client.tool_calls(
                    episode_id, [{"name": "programmatic_tool_call", "arguments": {"code": "print(6 * 7)"}}]
                )
                self.assertFalse(step["done"])
                self.assertIn("42", step["results"][0]["content"])
                text = '<tool_call>\n{"name": "programmatic_tool_call", "arguments": "{\\"code\\": \\"print(1.0)\\"}"}\n</tool_call>'
                step = await client.completion(episode_id, text=text)
                self.assertIn("1.0", step["results"][0]["content"])
                state = await client.get_episode(episode_id)
                self.assertEqual(state["counts"]["code_blocks"], 2)
                await client.delete_episode(episode_id)
                with self.assertRaises(RolloutServiceError) as caught:
                    await client.get_episode(episode_id)
                self.assertEqual((caught.exception.status, caught.exception.code), (404, "EPISODE_NOT_FOUND"))
                with self.assertRaises(RolloutServiceError) as caught:
                    await client.create_episode({"task": TASK, "scale": "v9", "mode": "ptc"})
                self.assertEqual(caught.exception.status, 400)
            finally:
                await client.close()

        run(scenario())

    def test_full_service_answers_busy_and_the_wait_has_a_deadline(self) -> None:
        async def scenario() -> None:
            client = ServiceClient(SERVICE.url)
            ids = []
            try:
                for _ in range(MAX_EPISODES):
                    ids.append((await client.create_episode({"task": TASK, "scale": "v0", "mode": "dtc"}))["episode_id"])
                started = time.monotonic()
                with self.assertRaises(ServiceBusyError) as caught:
                    await client.create_episode({"task": TASK, "scale": "v0", "mode": "dtc"}, busy_deadline_s=1.5)
                self.assertGreater(caught.exception.retry_after_s, 0)
                self.assertLess(time.monotonic() - started, 10)
            finally:
                for episode_id in ids:
                    await client.delete_episode(episode_id)
                await client.close()

        run(scenario())

    def test_idle_episodes_are_reaped(self) -> None:
        async def scenario() -> None:
            client = ServiceClient(SERVICE.url)
            try:
                episode_id = (await client.create_episode({"task": TASK, "scale": "v0", "mode": "dtc"}))["episode_id"]
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    await asyncio.sleep(0.5)
                    try:
                        await client.request("GET", "/healthz")
                        state = await client.get_episode(episode_id)
                        self.assertFalse(state["done"])
                    except RolloutServiceError as error:
                        self.assertEqual(error.status, 404)
                        return
                self.fail("the idle episode was not reaped within 30 s (idle timeout 3 s)")
            finally:
                await client.close()

        run(scenario())

    def test_token_rollout_bookkeeping(self) -> None:
        async def scenario() -> None:
            client = ServiceClient(SERVICE.url)
            try:
                model = ScriptedModel(client)
                spec = EpisodeSpec.from_row({"task": TASK, "scale": "v0", "seed": 0, "harness": "ptc"})
                result = await run_token_rollout(client, spec, model.generate, RolloutLimits(max_response_tokens=20000))
                self.assertTrue(result.done)
                self.assertEqual(result.end_reason, "claim_done")
                self.assertEqual(result.reward, 0.0)
                self.assertEqual(result.num_turns, 3)
                self.assertEqual(len(result.response_ids), len(result.response_mask))
                self.assertEqual(len(result.response_ids), len(result.response_logprobs))
                self.assertIn(0, result.response_mask)
                # every prompt is the previous prompt plus what was appended: history is never re-tokenised
                for earlier, later in zip(model.prompts, model.prompts[1:]):
                    self.assertEqual(later[: len(earlier)], earlier)
                observation = [t for t, m in zip(result.response_ids, result.response_mask) if m == 0]
                _, decoded = await client.request("POST", "/v1/detokenize", {"token_ids": observation})
                self.assertIn("<tool_response>", decoded["text"])
                self.assertIn("42", decoded["text"])
                self.assertIn("84", decoded["text"])
                self.assertEqual(result.facts["counts"]["code_blocks"], 2)
                limited = await run_token_rollout(
                    client, spec, ScriptedModel(client).generate, RolloutLimits(max_response_tokens=30)
                )
                self.assertEqual(limited.end_reason, "response_length")
                self.assertLessEqual(len(limited.response_ids), 30)
            finally:
                await client.close()

        run(scenario())

    def test_client_serves_several_event_loops(self) -> None:
        # ms-swift's colocate mode runs each batch in a new event loop; a pooled client must not reuse a connection
        # that belongs to an earlier (closed) loop.
        client = ServiceClient(SERVICE.url)
        for _ in range(3):
            self.assertTrue(asyncio.run(client.health())["ok"])
        asyncio.run(client.close())

    def test_pool_is_sticky(self) -> None:
        pool = ServicePool(["http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3"])
        self.assertIs(pool.pick("task/v0/0/7"), pool.pick("task/v0/0/7"))
        self.assertEqual(len({id(pool.pick(f"k{n}")) for n in range(64)}), 3)
        with self.assertRaises(ValueError):
            ServiceClient("ftp://nowhere")


ORACLE_PROGRAM = """memo = tools.read_file(path="memo.md")["content"]
import re
for item_id in [int(x) for x in re.findall(r"\\d+", memo)]:
    tools.deactivate_item(item_id=item_id)
items, page = [], 1
while True:
    result = tools.list_items(page=page, per_page=50)
    items += result["items"]
    if not result["has_more"]:
        break
    page += 1
print(f"{sum(i['price'] for i in items if i['active']):.2f}")"""


def tool_call_text(name: str, arguments: Dict[str, Any]) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call><|im_end|>"


class OraclePolicy:
    """One episode of tiny.deactivate solved as its oracle does: the program, then claim_done with the total the
    program printed (read from the last tool response the policy was shown)."""

    def __init__(self, client: ServiceClient) -> None:
        self.client = client
        self.turns = 0

    async def text(self, transcript: str) -> str:
        self.turns += 1
        if self.turns == 1:
            return tool_call_text("programmatic_tool_call", {"code": ORACLE_PROGRAM})
        response = transcript.rsplit("<tool_response>", 1)[-1]
        return tool_call_text("claim_done", {"answer": re.findall(r"\d+\.\d\d", response)[-1]})

    async def tokens(self, text: str) -> List[int]:
        _, answer = await self.client.request("POST", "/v1/tokenize", {"text": text})
        return [int(token) for token in answer["token_ids"]]

    async def transcript(self, prompt_ids: List[int]) -> str:
        _, answer = await self.client.request("POST", "/v1/detokenize", {"token_ids": prompt_ids})
        return answer["text"]


def install_fake_verl() -> Dict[str, Any]:
    """verl's agent-loop interface as training.md records it."""
    registry: Dict[str, Any] = {}

    class AgentLoopBase:
        def __init__(self, trainer_config, server_manager, tokenizer, processor, **kwargs):
            self.config = trainer_config.config
            self.server_manager = server_manager
            self.tokenizer = tokenizer
            self.processor = processor

        async def run(self, sampling_params, **kwargs):  # pragma: no cover - abstract
            raise NotImplementedError

    class AgentLoopOutput:
        FIELDS = {"prompt_ids", "response_ids", "response_mask", "response_logprobs", "multi_modal_data",
                  "reward_score", "num_turns", "metrics", "extra_fields"}
        REQUIRED = {"prompt_ids", "response_ids", "response_mask", "metrics"}

        def __init__(self, **fields):
            unknown = set(fields) - self.FIELDS
            missing = self.REQUIRED - set(fields)
            if unknown or missing:
                raise TypeError(f"AgentLoopOutput: unknown {unknown}, missing {missing}")
            self.__dict__.update(fields)

    def register(agent_name):
        def decorator(subclass):
            registry[agent_name] = {"_target_": f"{subclass.__module__}.{subclass.__qualname__}"}
            return subclass
        return decorator

    module = types.ModuleType("verl.experimental.agent_loop.agent_loop")
    module.AgentLoopBase = AgentLoopBase
    module.AgentLoopOutput = AgentLoopOutput
    module.register = register
    for name in ("verl", "verl.experimental", "verl.experimental.agent_loop"):
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules["verl.experimental.agent_loop.agent_loop"] = module
    return registry


def install_fake_swift() -> Dict[str, Dict[str, Any]]:
    """ms-swift's gym Env and MultiTurnScheduler interface as training.md records it."""
    envs: Dict[str, Any] = {}
    multi_turns: Dict[str, Any] = {}

    class Env:
        def __init__(self, env_config):
            self.env_config = env_config

    class MultiTurnScheduler:
        def __init__(self, *args, max_turns=None, **kwargs):
            self.max_turns = max_turns

        def check_finished(self, infer_request, response_choice, current_turn):
            return bool(self.max_turns and current_turn >= self.max_turns)

    gym = types.ModuleType("swift.rollout.gym_env")
    gym.Env, gym.envs = Env, envs
    multi = types.ModuleType("swift.rollout.multi_turn")
    multi.MultiTurnScheduler, multi.multi_turns = MultiTurnScheduler, multi_turns
    for name in ("swift", "swift.rollout"):
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules["swift.rollout.gym_env"] = gym
    sys.modules["swift.rollout.multi_turn"] = multi
    return {"envs": envs, "multi_turns": multi_turns}


class TrainerShellTests(unittest.TestCase):
    def test_verl_agent_loop(self) -> None:
        registry = install_fake_verl()
        os.environ["PROGAGENT_ROLLOUT_URLS"] = SERVICE.url
        import progagent_rl.verl_agent_loop as verl_loop  # noqa: WPS433

        self.assertEqual(registry["progagent_agent"]["_target_"], "progagent_rl.verl_agent_loop.ProgAgentAgentLoop")

        async def scenario() -> None:
            client = ServiceClient(SERVICE.url)
            model = ScriptedModel(client)

            class Output:
                def __init__(self, token_ids, log_probs):
                    self.token_ids, self.log_probs = token_ids, log_probs

            class ServerManager:
                async def generate(self, request_id, *, prompt_ids, sampling_params, image_data=None, video_data=None):
                    tokens, logprobs = await model.generate(prompt_ids, 0)
                    return Output(tokens, logprobs)

            config = types.SimpleNamespace(
                actor_rollout_ref=types.SimpleNamespace(
                    rollout=types.SimpleNamespace(response_length=20000, prompt_length=20000)
                )
            )
            loop = verl_loop.ProgAgentAgentLoop(types.SimpleNamespace(config=config), ServerManager(), None, None)
            output = await loop.run(
                {"temperature": 1.0},
                extra_info={"task": TASK, "scale": "v0", "seed": 0, "harness": "ptc", "index": 3},
                raw_prompt=[],
            )
            self.assertEqual(len(output.response_ids), len(output.response_mask))
            self.assertEqual(len(output.response_ids), len(output.response_logprobs))
            self.assertEqual(output.reward_score, 0.0)
            self.assertEqual(output.extra_fields["end_reason"], "claim_done")
            self.assertEqual(output.extra_fields["reward_extra_info"]["ptc_errors"], 0.0)
            self.assertGreater(len(output.prompt_ids), 100)
            self.assertEqual(output.num_turns, 3 + 2 + 1)  # assistant turns + tool-response turns + 1
            self.assertEqual(set(output.extra_fields["reward_extra_info"]), set(verl_loop.episode_statistics(
                verl_loop.RolloutResult(episode_id="", prompt_ids=[]))))
            row = {"task": TASK, "scale": "v0", "seed": 0, "harness": "ptc"}

            # A service that cannot be reached: a zero-reward output with one untrained token, never an exception.
            os.environ["PROGAGENT_ROLLOUT_URLS"] = "http://127.0.0.1:9"
            verl_loop._POOL = None
            down = await loop.run({}, extra_info=row, raw_prompt=[], global_steps=5)
            self.assertEqual((down.reward_score, down.extra_fields["end_reason"]), (0.0, "service_error"))
            self.assertEqual((down.response_mask, down.extra_fields["min_global_steps"]), ([0], 5))
            self.assertEqual(down.extra_fields["reward_extra_info"]["service_error"], 1.0)

            # A prompt longer than rollout.prompt_length: nothing generated, the prompt capped, reward 0.
            os.environ["PROGAGENT_ROLLOUT_URLS"] = SERVICE.url
            verl_loop._POOL = None
            config.actor_rollout_ref.rollout.prompt_length = 50
            short = verl_loop.ProgAgentAgentLoop(types.SimpleNamespace(config=config), ServerManager(), None, None)
            calls_before = model.turn
            capped = await short.run({}, extra_info=row, raw_prompt=[])
            self.assertEqual((capped.reward_score, capped.extra_fields["end_reason"]), (0.0, "prompt_length"))
            self.assertEqual((len(capped.prompt_ids), model.turn), (50, calls_before))

            # A truncated episode (response budget of 30 tokens): well-formed, reward 0, marked truncated.
            config.actor_rollout_ref.rollout.prompt_length = 20000
            config.actor_rollout_ref.rollout.response_length = 30
            model.turn = 0
            cut = await verl_loop.ProgAgentAgentLoop(types.SimpleNamespace(config=config), ServerManager(), None, None).run(
                {}, extra_info=row, raw_prompt=[]
            )
            self.assertEqual((cut.reward_score, cut.extra_fields["end_reason"]), (0.0, "response_length"))
            self.assertEqual(cut.extra_fields["reward_extra_info"]["truncated"], 1.0)
            self.assertLessEqual(len(cut.response_ids), 30)
            self.assertEqual(len(cut.response_ids), len(cut.response_mask))
            await client.close()

        run(scenario())

    def test_verl_loop_reward_weight_versions_and_budget(self) -> None:
        install_fake_verl()
        os.environ["PROGAGENT_ROLLOUT_URLS"] = SERVICE.url
        import progagent_rl.verl_agent_loop as verl_loop  # noqa: WPS433

        verl_loop._POOL = None

        async def scenario() -> None:
            client = ServiceClient(SERVICE.url)
            policy = OraclePolicy(client)
            calls: List[Any] = []

            class Output:  # verl's TokenOutput: vLLM's server reports the weight version that generated
                def __init__(self, token_ids: List[int], steps: int) -> None:
                    self.token_ids, self.log_probs = token_ids, [-0.1] * len(token_ids)
                    self.extra_fields = {"global_steps": steps, "min_global_steps": steps, "max_global_steps": steps}

            class ServerManager:
                async def generate(self, request_id, *, prompt_ids, sampling_params, **_):
                    calls.append((len(prompt_ids), dict(sampling_params)))
                    text = await policy.text(await policy.transcript(list(prompt_ids)))
                    return Output(await policy.tokens(text), 6 + len(calls))  # weights move between turns

            rollout = types.SimpleNamespace(response_length=20000, prompt_length=20000)
            config = types.SimpleNamespace(actor_rollout_ref=types.SimpleNamespace(rollout=rollout))
            loop = verl_loop.ProgAgentAgentLoop(types.SimpleNamespace(config=config), ServerManager(), None, None)
            row = {"task": TINY, "scale": "v0", "seed": 0, "harness": "ptc"}
            output = await loop.run({"temperature": 1.0}, extra_info=row, raw_prompt=[], global_steps=7)
            self.assertEqual((output.reward_score, output.extra_fields["end_reason"]), (1.0, "claim_done"))
            self.assertEqual(output.extra_fields["reward_extra_info"]["episode_reward"], 1.0)
            # The V1 trainer's staleness tags: the first turn's weights and the last turn's.
            self.assertEqual((output.extra_fields["min_global_steps"], output.extra_fields["max_global_steps"]), (7, 8))
            # Each generation may use what is left of the response budget, never the server's default.
            (first_prompt, first), (second_prompt, second) = calls
            self.assertEqual((first["max_tokens"], first["temperature"]), (20000, 1.0))
            self.assertEqual(second["max_tokens"], 20000 - (second_prompt - first_prompt))
            await client.close()

        run(scenario())

    def test_swift_scheduler_hooks(self) -> None:
        install_fake_swift()
        import progagent_rl.swift_plugin as plugin  # noqa: WPS433

        def request(uuid: str) -> Any:
            row = {"task": TINY, "scale": "v0", "seed": 0, "harness": "ptc"}
            return types.SimpleNamespace(uuid=uuid, messages=[{"role": "user", "content": "row"}], tools=None,
                                         data_dict={"extra_info": row})

        async def trajectory(scheduler: Any, policy: OraclePolicy, req: Any, finish_reason: str = "stop") -> Any:
            """The hooks in the order ms-swift's MultiTurnScheduler.run calls them (step only when not done)."""
            await scheduler.on_trajectory_start([req])
            turn = 1
            while True:
                text = await policy.text("\n".join(str(m["content"]) for m in req.messages))
                choice = types.SimpleNamespace(token_ids=await policy.tokens(text), finish_reason=finish_reason,
                                               message=types.SimpleNamespace(content=text))
                ended = await scheduler.on_turn_end(req, choice, turn)
                if ended["done"]:
                    return ended["rollout_infos"], turn
                scheduler.step(req, choice, turn)
                turn += 1

        async def scenario() -> None:
            client = ServiceClient(SERVICE.url)
            os.environ["PROGAGENT_ROLLOUT_URLS"] = SERVICE.url
            plugin._POOL = None
            scheduler = plugin.ProgAgentScheduler(max_turns=10)
            solved = request("solved")
            infos, turns = await trajectory(scheduler, OraclePolicy(client), solved)
            # The episode's system prompt and tools replaced the row's; token ids were accepted (render was asked
            # for); claim_done ended the trajectory at once, with the verifier's reward as total_reward.
            self.assertEqual(solved.messages[0]["role"], "system")
            self.assertIn("programmatic_tool_call", [tool["function"]["name"] for tool in solved.tools])
            self.assertIn("<tool_response>", solved.messages[-1]["content"])
            self.assertEqual((infos["total_reward"], infos["progagent_end_reason"], turns), (1.0, "claim_done", 2))
            self.assertEqual(scheduler.episodes, {})

            # Cut by length on the first turn: reward 0, the episode released on the service.
            cut_request = request("cut")
            infos, turns = await trajectory(scheduler, OraclePolicy(client), cut_request, finish_reason="length")
            self.assertEqual((infos["total_reward"], infos["progagent_end_reason"], turns), (0.0, "response_length", 1))
            self.assertEqual((scheduler.episodes, (await client.health())["live"]), ({}, 0))

            # The service unreachable: the trajectory still ends with total_reward 0, nothing raised.
            os.environ["PROGAGENT_ROLLOUT_URLS"] = "http://127.0.0.1:9"
            plugin._POOL = None
            infos, turns = await trajectory(scheduler, OraclePolicy(client), request("down"))
            self.assertEqual((infos["total_reward"], infos["progagent_end_reason"], turns), (0.0, "service_error", 1))
            os.environ["PROGAGENT_ROLLOUT_URLS"] = SERVICE.url
            plugin._POOL = None
            await client.close()

        run(scenario())

    def test_swift_gym_env(self) -> None:
        registries = install_fake_swift()
        os.environ["PROGAGENT_ROLLOUT_URLS"] = SERVICE.url
        import progagent_rl.swift_plugin as plugin  # noqa: WPS433

        self.assertIs(registries["envs"]["progagent"], plugin.ProgAgentEnv)
        self.assertIs(registries["multi_turns"]["progagent_scheduler"], plugin.ProgAgentScheduler)

        async def scenario() -> None:
            env = plugin.ProgAgentEnv({})
            request = types.SimpleNamespace(data_dict={"extra_info": {"task": TASK, "scale": "v0", "harness": "ptc"}})
            observation, info, system = await env.reset(request)
            self.assertIn("programmatic_tool_call", system)
            self.assertTrue(observation)
            call = '<tool_call>\n{"name": "programmatic_tool_call", "arguments": {"code": "print(2 ** 10)"}}\n</tool_call>'
            next_observation, reward, done, _ = await env.step([{"role": "assistant", "content": call}])
            self.assertTrue(next_observation.startswith("<tool_response>\n"))
            self.assertIn("1024", next_observation)
            self.assertFalse(done)
            done_call = '<tool_call>\n{"name": "claim_done", "arguments": {"answer": "x"}}\n</tool_call>'
            _, reward, done, info = await env.step([{"role": "assistant", "content": done_call}])
            self.assertTrue(done)
            self.assertEqual(reward, 0.0)
            await env.close()

        run(scenario())


if __name__ == "__main__":
    unittest.main()
