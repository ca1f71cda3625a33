"""ms-swift plugin: a gym `Env` and a `MultiTurnScheduler` over progagent episodes.

Load it with `--external_plugins <path to this file>` and pick one of:
  --use_gym_env true --gym_env progagent            (reward: the verifier's, as rollout_infos total_reward)
  --multi_turn_scheduler progagent_scheduler        (returns the model's own token ids and a loss mask)
The dataset rows are `progagent export rl` rows; their `extra_info` names the task instance. Service
settings come from the same environment variables as the verl loop (PROGAGENT_ROLLOUT_URLS, ...).
ms-swift is imported only here.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from typing import Any, Dict, List, Optional, Tuple

from swift.rollout.gym_env import Env, envs
from swift.rollout.multi_turn import MultiTurnScheduler, multi_turns

try:
    from .client import ServicePool
    from .rollout import EpisodeSpec, shaped_reward
except ImportError:  # loaded as a file by --external_plugins: the package must be on PYTHONPATH
    from progagent_rl.client import ServicePool
    from progagent_rl.rollout import EpisodeSpec, shaped_reward

_POOL: Optional[ServicePool] = None


def _pool() -> ServicePool:
    global _POOL
    if _POOL is None:
        urls = [url.strip() for url in os.environ.get("PROGAGENT_ROLLOUT_URLS", "http://127.0.0.1:8700").split(",")]
        _POOL = ServicePool([url for url in urls if url], auth_token=os.environ.get("PROGAGENT_AUTH_TOKEN") or None)
    return _POOL


def _row_extra_info(config: Any) -> Dict[str, Any]:
    data = getattr(config, "data_dict", None) or {}
    extra = data.get("extra_info") or data
    if isinstance(extra, str):
        extra = json.loads(extra)
    return dict(extra)


def observation_text(results: List[Dict[str, Any]]) -> str:
    """Tool results as Qwen3 renders consecutive tool messages inside one user turn (hermes blocks)."""
    return "\n".join(f"<tool_response>\n{result['content']}\n</tool_response>" for result in results)


class ProgAgentEnv(Env):
    """reset() opens the episode and returns (instruction, info, system prompt); step() runs the
    assistant's last message through the service; close() releases the episode."""

    def __init__(self, env_config: Any):
        super().__init__(env_config)
        self.episode_id: Optional[str] = None
        self.client = None
        self.penalty = float(os.environ.get("PROGAGENT_PTC_PENALTY", "0"))

    async def reset(self, config: Any) -> Tuple[str, Dict[str, Any], str]:
        spec = EpisodeSpec.from_row(_row_extra_info(config))
        self.client = _pool().pick(f"{spec.task}/{spec.scale}/{spec.seed}/{id(self)}")
        body = spec.request_body()
        body.pop("render", None)
        created = await self.client.create_episode(body)
        self.episode_id = str(created["episode_id"])
        messages = created["messages"]
        system = next((m["content"] for m in messages if m["role"] == "system"), "")
        user = next((m["content"] for m in messages if m["role"] == "user"), "")
        return user, {"episode_id": self.episode_id, "tools": created.get("tools", [])}, system

    async def step(self, action: List[Dict[str, Any]]) -> Tuple[str, float, bool, Dict[str, Any]]:
        assert self.client is not None and self.episode_id is not None, "step() before reset()"
        text = action[-1].get("content") or ""
        answer = await self.client.completion(self.episode_id, text=text)
        done = bool(answer.get("done"))
        reward = 0.0
        info: Dict[str, Any] = {"end_reason": answer.get("end_reason")}
        if done:
            state = await self.client.get_episode(self.episode_id)
            counts = state.get("counts") or {}
            reward = shaped_reward(float(answer.get("reward") or 0.0), int(counts.get("ptc_errors", 0)), self.penalty)
            info.update(counts)
        return observation_text(answer.get("results") or []), reward, done, info

    async def close(self) -> None:
        if self.client is not None and self.episode_id is not None:
            await self.client.delete_episode(self.episode_id)
            self.episode_id = None


class ProgAgentScheduler(MultiTurnScheduler):
    """Multi-turn GRPO/GSPO: each turn posts the model's token ids (text as a fallback) to the episode,
    appends the tool responses, and returns the turn's `response_token_ids` with loss mask 1."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.penalty = float(os.environ.get("PROGAGENT_PTC_PENALTY", "0"))
        self.episodes: Dict[str, Tuple[Any, str]] = {}

    def _episode(self, infer_request: Any) -> Tuple[Any, str]:
        key = getattr(infer_request, "uuid", None) or str(id(infer_request))
        if key not in self.episodes:
            spec = EpisodeSpec.from_row(_row_extra_info(infer_request))
            client = _pool().pick(f"{spec.task}/{spec.scale}/{spec.seed}/{key}")
            body = spec.request_body()
            body.pop("render", None)
            created = _run(client.create_episode(body))
            self.episodes[key] = (client, str(created["episode_id"]))
        return self.episodes[key]

    def check_finished(self, infer_request: Any, response_choice: Any, current_turn: int) -> bool:
        infos = getattr(infer_request, "rollout_infos", None) or {}
        if infos.get("progagent_done"):
            return True
        return super().check_finished(infer_request, response_choice, current_turn)

    def step(self, infer_request: Any, response_choice: Any, current_turn: int) -> Dict[str, Any]:
        client, episode_id = self._episode(infer_request)
        token_ids = list(getattr(response_choice, "token_ids", None) or [])
        if token_ids:
            answer = _run(client.completion(episode_id, token_ids=token_ids))
        else:
            answer = _run(client.completion(episode_id, text=response_choice.message.content or ""))
        infos: Dict[str, Any] = {"progagent_episode": episode_id}
        if answer.get("done"):
            state = _run(client.get_episode(episode_id))
            counts = state.get("counts") or {}
            infos.update(
                progagent_done=True,
                total_reward=shaped_reward(float(answer.get("reward") or 0.0), int(counts.get("ptc_errors", 0)), self.penalty),
                **{f"progagent_{key}": value for key, value in counts.items()},
            )
            _run(client.delete_episode(episode_id))
        else:
            infer_request.messages.append({"role": "user", "content": observation_text(answer.get("results") or [])})
        setattr(infer_request, "rollout_infos", {**(getattr(infer_request, "rollout_infos", None) or {}), **infos})
        result: Dict[str, Any] = {"infer_request": infer_request, "rollout_infos": infos}
        if token_ids:
            result["response_token_ids"] = token_ids
            result["response_loss_mask"] = [1] * len(token_ids)
        return result


_LOOP: Optional[asyncio.AbstractEventLoop] = None
_LOOP_LOCK = threading.Lock()


def _run(coroutine: Any, timeout_s: float = 900.0) -> Any:
    """ms-swift calls step() synchronously; requests run on one private event loop in a daemon thread,
    so pooled connections stay on the loop that opened them and the caller's loop is never blocked."""
    global _LOOP
    with _LOOP_LOCK:
        if _LOOP is None:
            _LOOP = asyncio.new_event_loop()
            threading.Thread(target=_LOOP.run_forever, name="progagent-rollout", daemon=True).start()
    return asyncio.run_coroutine_threadsafe(coroutine, _LOOP).result(timeout_s)


envs["progagent"] = ProgAgentEnv
multi_turns["progagent_scheduler"] = ProgAgentScheduler
