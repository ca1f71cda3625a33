"""verl agent loop `progagent_agent`: every rollout is one progagent episode on a rollout service.

Import this module where verl builds its agent loops (the agent-loop config yaml in `recipes/` names
it), or list it in `actor_rollout_ref.rollout.agent.agent_loop_config_path`. verl is imported only here.

Settings (environment variables, so that every Ray worker sees the same ones):
  PROGAGENT_ROLLOUT_URLS   comma-separated service URLs, one per node (default http://127.0.0.1:8700)
  PROGAGENT_AUTH_TOKEN     bearer token, when the services were started with --auth-token-env
  PROGAGENT_TOKENIZER      tokenizer folder the services render with (default: their Qwen3)
  PROGAGENT_MAX_TURNS      assistant turns per episode (default 100, the authors' max_tool_calls)
  PROGAGENT_PTC_PENALTY    reward shaping max(r - penalty x PTC errors, 0) (default 0: binary reward)
  PROGAGENT_TERMINAL       "1" offers the terminal{command} meta-tool
  PROGAGENT_INTERFACE      "paper" for the authors' meta-tool profile
"""

from __future__ import annotations

import os
import socket
from typing import Any, Dict
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register

from .client import ServicePool
from .rollout import EpisodeSpec, RolloutLimits, run_token_rollout

_POOL: ServicePool | None = None


def _pool() -> ServicePool:
    """One pool per worker process; services on this node come first when their host is ours."""
    global _POOL
    if _POOL is None:
        urls = [url.strip() for url in os.environ.get("PROGAGENT_ROLLOUT_URLS", "http://127.0.0.1:8700").split(",")]
        urls = [url for url in urls if url]
        local = [url for url in urls if socket.gethostname() in url or "127.0.0.1" in url or "localhost" in url]
        _POOL = ServicePool(local or urls, auth_token=os.environ.get("PROGAGENT_AUTH_TOKEN") or None)
    return _POOL


@register("progagent_agent")
class ProgAgentAgentLoop(AgentLoopBase):
    """Runs the episode named by the row's `extra_info`; the verifier's reward becomes `reward_score`."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        rollout = self.config.actor_rollout_ref.rollout
        self.limits = RolloutLimits(
            max_response_tokens=int(rollout.response_length),
            max_turns=int(os.environ.get("PROGAGENT_MAX_TURNS", "100")),
        )
        self.penalty = float(os.environ.get("PROGAGENT_PTC_PENALTY", "0"))

    async def run(self, sampling_params: Dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        extra_info = kwargs.get("extra_info") or {}
        spec = EpisodeSpec.from_row(
            extra_info,
            terminal=os.environ.get("PROGAGENT_TERMINAL") == "1" or None,
            interface=os.environ.get("PROGAGENT_INTERFACE") or None,
            tokenizer=os.environ.get("PROGAGENT_TOKENIZER") or None,
        )
        request_id = uuid4().hex  # sticky: every turn of this episode goes to the same inference server

        async def generate(prompt_ids, max_new_tokens):
            output = await self.server_manager.generate(
                request_id=request_id, prompt_ids=prompt_ids, sampling_params=dict(sampling_params)
            )
            return output.token_ids, output.log_probs

        key = f"{spec.task}/{spec.scale}/{spec.seed}/{kwargs.get('index', request_id)}/{request_id}"
        result = await run_token_rollout(_pool().pick(key), spec, generate, self.limits, ptc_error_penalty=self.penalty)
        counts = result.facts.get("counts", {})
        return AgentLoopOutput(
            prompt_ids=result.prompt_ids,
            response_ids=result.response_ids,
            response_mask=result.response_mask,
            response_logprobs=result.response_logprobs if result.has_logprobs else None,
            reward_score=result.reward,
            num_turns=result.num_turns * 2 + 1,
            metrics={"generate_sequences": result.generate_s, "tool_calls": result.tool_s},
            extra_fields={
                "episode_reward": result.reward,
                "end_reason": result.end_reason,
                "tool_calls": counts.get("tool_calls", 0),
                "runtime_errors": counts.get("runtime_errors", 0),
                "ptc_errors": counts.get("ptc_errors", 0),
                "truncated": result.end_reason == "response_length",
            },
        )
