"""ms-swift plugin: a `MultiTurnScheduler` and a gym `Env` over progagent episodes.

Load it with `--external_plugins <this file>` (the folder holding `progagent_rl` must be on PYTHONPATH; in
server mode in `swift rollout`, with `--vllm_server_pass_dataset true` so the rows' `extra_info` arrives), then:
  --multi_turn_scheduler progagent_scheduler     (recommended; `recipes/swift_grpo.sh`)
  --use_gym_env true --gym_env progagent         (ms-swift's GYMScheduler drives the Env below)
Rows are `progagent export rl --format ms-swift` rows; their `extra_info` names the task instance. The reward
reaches GRPO as `rollout_infos["total_reward"]` (set on every trajectory, 0 when an episode was cut off or the
service failed). Service settings come from the same environment variables as the verl loop. ms-swift is
imported only here.

How the scheduler maps an episode onto ms-swift's hooks (`MultiTurnScheduler.run` in server mode and
`run_multi_turn` in colocate mode call the same ones): `on_trajectory_start` opens the episode and replaces the
request's messages and tools with the episode's (system prompt, task, meta-tool schemas); `on_turn_end` hands
the model's tokens to the service and decides whether the trajectory ends (ms-swift stops before `step` when it
does, so the tool call that ends an episode is never followed by another generation); `step` appends the tool
responses as the next user turn, rendered as Qwen3 renders consecutive tool messages.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from swift.rollout.gym_env import Env, envs
from swift.rollout.multi_turn import MultiTurnScheduler, multi_turns

try:
    from .client import ServiceClient, ServicePool
    from .rollout import SERVICE_FAILURES, EpisodeSpec, shaped_reward
except ImportError:  # loaded as a file by --external_plugins: the package must be on PYTHONPATH
    from progagent_rl.client import ServiceClient, ServicePool
    from progagent_rl.rollout import SERVICE_FAILURES, EpisodeSpec, shaped_reward

logger = logging.getLogger(__name__)
_POOL: Optional[ServicePool] = None


def _pool() -> ServicePool:
    global _POOL
    if _POOL is None:
        _POOL = ServicePool.from_env()
    return _POOL


def _row_extra_info(request: Any) -> Dict[str, Any]:
    data = getattr(request, "data_dict", None) or {}
    extra = data.get("extra_info") or data
    if isinstance(extra, str):
        extra = json.loads(extra)
    if not isinstance(extra, dict):
        raise ValueError("the row has no extra_info: is --vllm_server_pass_dataset true set for `swift rollout`?")
    return dict(extra)


def _spec(request: Any) -> EpisodeSpec:
    return EpisodeSpec.from_row(
        _row_extra_info(request),
        terminal=os.environ.get("PROGAGENT_TERMINAL") == "1" or None,
        interface=os.environ.get("PROGAGENT_INTERFACE") or None,
        tokenizer=os.environ.get("PROGAGENT_TOKENIZER") or None,
    )


def observation_text(results: List[Dict[str, Any]]) -> str:
    """Tool results as Qwen3 renders consecutive tool messages inside one user turn (hermes blocks)."""
    return "\n".join(f"<tool_response>\n{result['content']}\n</tool_response>" for result in results)


@dataclass
class _Episode:
    client: Optional[ServiceClient]
    episode_id: Optional[str]
    observation: Optional[str] = None
    error: Optional[str] = None
    infos: Dict[str, Any] = field(default_factory=dict)


def _infos(reward: float, end_reason: Optional[str], counts: Dict[str, Any], error: Optional[str]) -> Dict[str, Any]:
    """What a trajectory reports to ms-swift: total_reward always, the episode's numbers beside it."""
    infos: Dict[str, Any] = {"total_reward": float(reward), "progagent_end_reason": end_reason}
    infos.update({f"progagent_{key}": value for key, value in counts.items()})
    if error is not None:
        infos["progagent_error"] = error
    return infos


class ProgAgentScheduler(MultiTurnScheduler):
    """Multi-turn GRPO/GSPO over progagent episodes (see the module docstring for the hook mapping)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.penalty = float(os.environ.get("PROGAGENT_PTC_PENALTY", "0"))
        self.episodes: Dict[str, _Episode] = {}

    async def on_trajectory_start(self, requests: List[Any]) -> None:
        await asyncio.gather(*(self._open(request) for request in requests))

    async def _open(self, request: Any) -> None:
        key = str(getattr(request, "uuid", None) or id(request))
        spec = _spec(request)
        client = _pool().pick(f"{spec.task}/{spec.scale}/{spec.seed}/{key}")
        try:
            created = await client.create_episode(spec.request_body())
        except SERVICE_FAILURES as error:
            logger.warning("progagent episode %s/%s/%s did not open: %s (reward 0)", spec.task, spec.scale, spec.seed, error)
            self.episodes[key] = _Episode(None, None, error=str(error))
            return
        self.episodes[key] = _Episode(client, str(created["episode_id"]))
        request.messages = [{"role": m["role"], "content": m["content"]} for m in created["messages"]]
        request.tools = created.get("tools") or None

    async def on_turn_end(self, infer_request: Any, response_choice: Any, current_turn: int) -> Dict[str, Any]:
        key = str(getattr(infer_request, "uuid", None) or id(infer_request))
        episode = self.episodes.get(key) or _Episode(None, None, error="no episode was opened for this request")
        if episode.client is None or episode.episode_id is None:
            self.episodes.pop(key, None)
            return {"done": True, "rollout_infos": _infos(0.0, "service_error", {}, episode.error)}
        try:
            answer = await self._complete(episode, response_choice)
            if answer.get("done"):
                state = await episode.client.get_episode(episode.episode_id)
                counts = state.get("counts") or {}
                reward = shaped_reward(float(answer.get("reward") or 0.0), int(counts.get("ptc_errors", 0)), self.penalty)
                await self._close(key)
                return {"done": True, "rollout_infos": _infos(reward, answer.get("end_reason"), counts, None)}
        except SERVICE_FAILURES as error:
            await self._close(key)
            return {"done": True, "rollout_infos": _infos(0.0, "service_error", {}, str(error))}
        cut = "response_length" if getattr(response_choice, "finish_reason", None) == "length" else None
        if cut is None and self.max_turns and current_turn >= self.max_turns:
            cut = "max_turns"
        if cut is not None:  # ms-swift ends the trajectory here: release the episode, reward 0
            await self._close(key)
            return {"done": True, "rollout_infos": _infos(0.0, cut, {}, None)}
        episode.observation = observation_text(answer.get("results") or [])
        return {"done": False, "rollout_infos": _infos(0.0, None, {}, None)}

    async def _complete(self, episode: _Episode, response_choice: Any) -> Dict[str, Any]:
        assert episode.client is not None and episode.episode_id is not None
        token_ids = list(getattr(response_choice, "token_ids", None) or [])
        if token_ids:
            return await episode.client.completion(episode.episode_id, token_ids=[int(t) for t in token_ids])
        return await episode.client.completion(episode.episode_id, text=response_choice.message.content or "")

    async def _close(self, key: str) -> None:
        episode = self.episodes.pop(key, None)
        if episode is not None and episode.client is not None and episode.episode_id is not None:
            try:
                await episode.client.delete_episode(episode.episode_id)
            except SERVICE_FAILURES:
                pass  # the service's idle reaper ends an episode nobody releases

    def step(self, infer_request: Any, response_choice: Any, current_turn: int) -> Dict[str, Any]:
        key = str(getattr(infer_request, "uuid", None) or id(infer_request))
        episode = self.episodes.get(key)
        if episode is not None and episode.observation is not None:
            infer_request.messages.append({"role": "user", "content": episode.observation})
            episode.observation = None
        return {"infer_request": infer_request}


class ProgAgentEnv(Env):
    """The gym form: reset() opens the episode (and sets the request's tools, which ms-swift's GYMScheduler
    does not take from `info`), step() runs the assistant's last message, close() releases the episode."""

    def __init__(self, env_config: Any):
        super().__init__(env_config)
        self.episode_id: Optional[str] = None
        self.client: Optional[ServiceClient] = None
        self.penalty = float(os.environ.get("PROGAGENT_PTC_PENALTY", "0"))

    async def reset(self, config: Any) -> Tuple[str, Dict[str, Any], str]:
        spec = _spec(config)
        self.client = _pool().pick(f"{spec.task}/{spec.scale}/{spec.seed}/{id(self)}")
        body = spec.request_body()
        body.pop("render", None)  # the gym form posts text
        created = await self.client.create_episode(body)
        self.episode_id = str(created["episode_id"])
        messages = created["messages"]
        if hasattr(config, "tools"):
            config.tools = created.get("tools") or None
        system = next((m["content"] for m in messages if m["role"] == "system"), "")
        user = next((m["content"] for m in messages if m["role"] == "user"), "")
        return user, {"episode_id": self.episode_id, "tools": created.get("tools", [])}, system

    async def step(self, action: List[Dict[str, Any]]) -> Tuple[str, float, bool, Dict[str, Any]]:
        if self.client is None or self.episode_id is None:
            raise RuntimeError("step() before reset()")
        try:
            answer = await self.client.completion(self.episode_id, text=action[-1].get("content") or "")
            info: Dict[str, Any] = {"end_reason": answer.get("end_reason")}
            if not answer.get("done"):
                return observation_text(answer.get("results") or []), 0.0, False, info
            counts = (await self.client.get_episode(self.episode_id)).get("counts") or {}
        except SERVICE_FAILURES as error:
            return "", 0.0, True, {"end_reason": "service_error", "error": str(error)}
        reward = shaped_reward(float(answer.get("reward") or 0.0), int(counts.get("ptc_errors", 0)), self.penalty)
        return "", reward, True, {**info, **counts}

    async def close(self) -> None:
        if self.client is not None and self.episode_id is not None:
            try:
                await self.client.delete_episode(self.episode_id)
            except SERVICE_FAILURES:
                pass
            self.episode_id = None


envs["progagent"] = ProgAgentEnv
multi_turns["progagent_scheduler"] = ProgAgentScheduler
