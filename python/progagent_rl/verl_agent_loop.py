"""verl agent loop `progagent_agent`: every rollout is one progagent episode on a rollout service.

`recipes/agent_loop.yaml` names this class (`actor_rollout_ref.rollout.agent.agent_loop_config_path`); rows of
`progagent export rl --format verl` carry `agent_name=progagent_agent`. verl is imported only here.

Settings (environment variables; the recipes pass them to every Ray worker through
`ray_kwargs.ray_init.runtime_env.env_vars`):
  PROGAGENT_ROLLOUT_URLS   comma-separated service URLs (default http://127.0.0.1:8700, the node's own service)
  PROGAGENT_AUTH_TOKEN     bearer token, when the services were started with --auth-token-env
  PROGAGENT_TOKENIZER      tokenizer folder the services render with (default: their Qwen3)
  PROGAGENT_MAX_TURNS      assistant turns per episode (default 100, the authors' max_tool_calls)
  PROGAGENT_PTC_PENALTY    reward shaping max(r - penalty x PTC errors, 0) (default 0: binary reward)
  PROGAGENT_TERMINAL       "1" offers the terminal{command} meta-tool
  PROGAGENT_INTERFACE      "paper" for the authors' meta-tool profile

What the loop returns, whatever happens to the episode: a well-formed `AgentLoopOutput` (prompt at most
`rollout.prompt_length` tokens, response at most `rollout.response_length`), the verifier's reward (0 when the
service failed, the prompt was too long or the episode was cut off), `extra_fields["reward_extra_info"]` with
the same keys on every output (verl stacks them into validation metrics), and the inference server's
`min_global_steps` / `max_global_steps` (verl's V1 trainer computes staleness from them).
"""

from __future__ import annotations

import logging
import os
from typing import Any, Dict, List, Optional
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register

from .client import ServicePool
from .rollout import EpisodeSpec, RolloutLimits, RolloutResult, run_token_rollout

logger = logging.getLogger(__name__)

_POOL: Optional[ServicePool] = None


def _pool() -> ServicePool:
    """One pool per worker process (its connections are kept per event loop)."""
    global _POOL
    if _POOL is None:
        _POOL = ServicePool.from_env()
    return _POOL


def episode_statistics(result: RolloutResult) -> Dict[str, float]:
    """The per-episode numbers verl puts beside the reward (same keys for every episode, numbers only)."""
    counts = result.facts.get("counts") or {}
    return {
        "episode_reward": float(result.reward),
        "claimed_done": float(result.done),
        "truncated": float(result.end_reason in ("response_length", "prompt_length", "max_turns", "episode_deadline")),
        "service_error": float(result.error is not None),
        "assistant_turns": float(result.num_turns),
        "tool_calls": float(counts.get("tool_calls", 0)),
        "runtime_errors": float(counts.get("runtime_errors", 0)),
        "ptc_errors": float(counts.get("ptc_errors", 0)),
    }


class _Generation:
    """verl's `server_manager.generate` for one episode: sticky request id, the remaining response budget as
    `max_tokens`, and the server's extra fields (weight versions) carried as verl's own tool loop carries them."""

    def __init__(self, server_manager: Any, sampling_params: Dict[str, Any]):
        self.server_manager = server_manager
        self.sampling_params = dict(sampling_params)
        self.request_id = uuid4().hex
        self.extra_fields: Dict[str, Any] = {}
        self.num_preempted: Optional[int] = None

    async def __call__(self, prompt_ids: List[int], max_new_tokens: int):
        output = await self.server_manager.generate(
            request_id=self.request_id,
            prompt_ids=prompt_ids,
            sampling_params={**self.sampling_params, "max_tokens": int(max_new_tokens)},
        )
        fields = dict(getattr(output, "extra_fields", None) or {})
        if not self.extra_fields:
            self.extra_fields.update(fields)
        elif fields.get("max_global_steps") is not None:
            self.extra_fields["max_global_steps"] = fields["max_global_steps"]
        preempted = getattr(output, "num_preempted", None)
        if preempted is not None:
            self.num_preempted = (self.num_preempted or 0) + int(preempted)
        return output.token_ids, output.log_probs


@register("progagent_agent")
class ProgAgentAgentLoop(AgentLoopBase):
    """Runs the episode named by the row's `extra_info`; the verifier's reward becomes `reward_score`."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        rollout = self.config.actor_rollout_ref.rollout
        self.prompt_length = int(rollout.prompt_length)
        self.response_length = int(rollout.response_length)
        self.limits = RolloutLimits(
            max_response_tokens=self.response_length,
            max_prompt_tokens=self.prompt_length,
            max_turns=int(os.environ.get("PROGAGENT_MAX_TURNS", "100")),
        )
        self.penalty = float(os.environ.get("PROGAGENT_PTC_PENALTY", "0"))

    async def run(self, sampling_params: Dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        spec = EpisodeSpec.from_row(
            _plain(kwargs.get("extra_info")),
            terminal=os.environ.get("PROGAGENT_TERMINAL") == "1" or None,
            interface=os.environ.get("PROGAGENT_INTERFACE") or None,
            tokenizer=os.environ.get("PROGAGENT_TOKENIZER") or None,
        )
        generation = _Generation(self.server_manager, sampling_params)
        key = f"{spec.task}/{spec.scale}/{spec.seed}/{generation.request_id}"
        result = await run_token_rollout(
            _pool().pick(key), spec, generation, self.limits, ptc_error_penalty=self.penalty
        )
        if result.error is not None:
            logger.warning("progagent episode %s/%s/%s: %s (reward 0)", spec.task, spec.scale, spec.seed, result.error)
        return self._output(result, generation, kwargs)

    def _output(self, result: RolloutResult, generation: _Generation, row: Dict[str, Any]) -> AgentLoopOutput:
        prompt_ids = result.prompt_ids[-self.prompt_length :] or self._fallback_prompt(row)
        response_ids = result.response_ids[: self.response_length]
        response_mask = result.response_mask[: self.response_length]
        logprobs = result.response_logprobs[: self.response_length]
        if not response_ids:
            # verl places the reward on the last response token: give an episode without one a single
            # end-of-sequence token that is never trained (mask 0).
            response_ids, response_mask, logprobs = [self._end_token()], [0], [0.0]
        extra_fields = dict(generation.extra_fields)
        steps = row.get("global_steps")
        for name in ("min_global_steps", "max_global_steps"):
            if extra_fields.get(name) is None and steps is not None:
                extra_fields[name] = int(steps)  # no generation happened: this step's weights
        extra_fields.update(
            reward_extra_info=episode_statistics(result),
            end_reason=result.end_reason,
            rollout_error=result.error,
        )
        metrics: Dict[str, Any] = {"generate_sequences": result.generate_s, "tool_calls": result.tool_s}
        if generation.num_preempted is not None:
            metrics["num_preempted"] = generation.num_preempted
        return AgentLoopOutput(
            prompt_ids=prompt_ids,
            response_ids=response_ids,
            response_mask=response_mask,
            response_logprobs=logprobs if result.has_logprobs else None,
            reward_score=float(result.reward),
            # As verl's tool loop counts: assistant turns + tool-response (user) turns + 1 for the prompt.
            num_turns=result.num_turns + result.observation_turns + 1,
            metrics=metrics,
            extra_fields=extra_fields,
        )

    def _fallback_prompt(self, row: Dict[str, Any]) -> List[int]:
        """The row's prompt through the trainer's tokenizer, for an episode the service never opened."""
        messages = row.get("raw_prompt")
        try:
            ids = self.tokenizer.apply_chat_template(list(messages), add_generation_prompt=True, tokenize=True)
            ids = [int(token) for token in (ids.get("input_ids", ids) if isinstance(ids, dict) else ids)]
        except Exception:  # noqa: BLE001 - any tokenizer failure leaves the one-token prompt below
            ids = []
        return ids[-self.prompt_length :] or [self._end_token()]

    def _end_token(self) -> int:
        for name in ("eos_token_id", "pad_token_id"):
            value = getattr(self.tokenizer, name, None)
            if isinstance(value, int):
                return value
        return 0


def _plain(value: Any) -> Dict[str, Any]:
    """A row's extra_info as a dict (parquet structs arrive as dicts; numpy scalars as `.item()`)."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return {key: (item.item() if hasattr(item, "item") else item) for key, item in value.items()}
    raise ValueError(f"extra_info must be a mapping of task, scale, seed, harness; got {type(value).__name__}")
