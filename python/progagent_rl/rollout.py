"""Token-in/token-out rollouts over a progagent episode (standard library only).

The trainer owns the model and its tokens; the service owns the episode. One rollout is:
create the episode (the service renders the prompt with the model's chat template), then repeat:
generate tokens, hand them to the service, append the observation tokens it returns (mask 0),
until the episode is done or a limit is reached. History is never re-tokenised.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .client import RolloutServiceError, ServiceClient

__all__ = ["EpisodeSpec", "RolloutLimits", "RolloutResult", "GenerateFn", "run_token_rollout", "shaped_reward"]

#: generate(prompt_ids, max_new_tokens) -> (token_ids, log_probs or None)
GenerateFn = Callable[[List[int], int], Awaitable[Tuple[Sequence[int], Optional[Sequence[float]]]]]

MODES = ("ptc", "dtc", "hybrid")


@dataclass(frozen=True)
class EpisodeSpec:
    """Which task instance to run and how (the `extra_info` of an `export rl` row)."""

    task: str
    scale: str = "v0"
    seed: int = 0
    mode: str = "ptc"
    terminal: bool = False
    interface: Optional[str] = None
    tokenizer: Optional[str] = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {self.mode!r}")
        if self.scale not in ("v0", "v1", "v2", "v3"):
            raise ValueError(f"scale must be one of v0..v3, got {self.scale!r}")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")

    @classmethod
    def from_row(cls, extra_info: Mapping[str, Any], **overrides: Any) -> "EpisodeSpec":
        """Builds a spec from an RL dataset row's `extra_info` (task, scale, seed, harness)."""
        missing = [key for key in ("task", "scale") if key not in extra_info]
        if missing:
            raise ValueError(f"extra_info lacks {missing}: is this an `progagent export rl` row?")
        values: Dict[str, Any] = {
            "task": str(extra_info["task"]),
            "scale": str(extra_info["scale"]),
            "seed": int(extra_info.get("seed", 0)),
            "mode": str(extra_info.get("harness", extra_info.get("mode", "ptc"))),
        }
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(**values)

    def request_body(self) -> Dict[str, Any]:
        body: Dict[str, Any] = {"task": self.task, "scale": self.scale, "seed": self.seed, "mode": self.mode}
        body["render"] = {"tokenizer": self.tokenizer} if self.tokenizer else {}
        if self.terminal:
            body["terminal"] = True
        if self.interface:
            body["interface"] = self.interface
        return body


@dataclass(frozen=True)
class RolloutLimits:
    """`max_response_tokens` is the trainer's response length (model and observation tokens together);
    `max_prompt_tokens` its prompt length: a longer rendered prompt ends the episode before any generation."""

    max_response_tokens: int = 75_000
    max_turns: int = 100
    episode_deadline_s: float = 1_800.0
    max_prompt_tokens: int = 1_000_000

    def __post_init__(self) -> None:
        for name in ("max_response_tokens", "max_turns", "max_prompt_tokens"):
            if int(getattr(self, name)) <= 0:
                raise ValueError(f"{name} must be a positive integer")
        if self.episode_deadline_s <= 0:
            raise ValueError("episode_deadline_s must be positive")


@dataclass
class RolloutResult:
    episode_id: str
    prompt_ids: List[int]
    response_ids: List[int] = field(default_factory=list)
    response_mask: List[int] = field(default_factory=list)
    response_logprobs: List[float] = field(default_factory=list)
    has_logprobs: bool = True
    reward: float = 0.0
    done: bool = False
    end_reason: str = "unknown"
    #: assistant turns (generations) and observation turns (tool responses appended)
    num_turns: int = 0
    observation_turns: int = 0
    #: why the episode stopped early through no fault of the model (service unreachable, error answer)
    error: Optional[str] = None
    facts: Dict[str, Any] = field(default_factory=dict)
    generate_s: float = 0.0
    tool_s: float = 0.0

    def append(self, token_ids: Sequence[int], mask: int, logprobs: Optional[Sequence[float]] = None) -> None:
        self.response_ids.extend(int(token) for token in token_ids)
        self.response_mask.extend([mask] * len(token_ids))
        if logprobs is None or len(logprobs) != len(token_ids):
            if mask == 1:
                self.has_logprobs = False
            self.response_logprobs.extend([0.0] * len(token_ids))
        else:
            self.response_logprobs.extend(float(value) for value in logprobs)


def shaped_reward(reward: float, ptc_errors: int, penalty: float) -> float:
    """The authors' shaping: max(r - penalty x PTC errors, 0). `penalty=0` keeps the binary reward."""
    return max(float(reward) - penalty * max(0, int(ptc_errors)), 0.0)


#: Failures of the rollout service or of the connection to it: data for the trainer, never an exception.
SERVICE_FAILURES = (RolloutServiceError, OSError, asyncio.TimeoutError)


async def run_token_rollout(
    client: ServiceClient,
    spec: EpisodeSpec,
    generate: GenerateFn,
    limits: RolloutLimits = RolloutLimits(),
    *,
    ptc_error_penalty: float = 0.0,
) -> RolloutResult:
    """Runs one episode to its end and always releases it on the service (also on errors and cancellation).

    A service failure does not raise: the result keeps what was generated so far, with reward 0,
    `end_reason="service_error"` and `error` set (an empty `prompt_ids` when the episode never opened).
    A prompt longer than `limits.max_prompt_tokens` ends the episode before generation (`"prompt_length"`).
    Exceptions of `generate` (the trainer's own inference) propagate.
    """
    try:
        created = await client.create_episode(spec.request_body())
    except SERVICE_FAILURES as error:
        return RolloutResult(episode_id="", prompt_ids=[], end_reason="service_error", error=_describe(error))
    episode_id = str(created.get("episode_id", ""))
    prompt_ids = created.get("prompt_token_ids")
    result = RolloutResult(episode_id=episode_id, prompt_ids=[int(token) for token in prompt_ids or []])
    try:
        if not isinstance(prompt_ids, list):
            result.end_reason, result.error = "service_error", "the service did not render prompt_token_ids"
        elif len(result.prompt_ids) > limits.max_prompt_tokens:
            result.end_reason = "prompt_length"
        else:
            await _turns(client, result, generate, limits)
            state = await client.get_episode(episode_id)
            result.facts = {key: state[key] for key in ("counts", "end_reason", "task", "scale", "seed", "mode") if key in state}
    except SERVICE_FAILURES as error:
        result.done, result.reward = False, 0.0
        result.end_reason, result.error = "service_error", _describe(error)
    finally:
        try:
            await asyncio.shield(client.delete_episode(episode_id))
        except SERVICE_FAILURES:
            pass  # the service's idle reaper ends an episode nobody releases
    if result.error is None:
        counts = result.facts.get("counts") or {}
        result.reward = shaped_reward(result.reward, int(counts.get("ptc_errors", 0)), ptc_error_penalty)
    return result


async def _turns(client: ServiceClient, result: RolloutResult, generate: GenerateFn, limits: RolloutLimits) -> None:
    """Generate, hand the tokens to the service, append its observation; until done or a limit."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limits.episode_deadline_s
    while True:
        budget = limits.max_response_tokens - len(result.response_ids)
        if budget <= 0:
            result.end_reason = "response_length"
            return
        if result.num_turns >= limits.max_turns:
            result.end_reason = "max_turns"
            return
        if loop.time() >= deadline:
            result.end_reason = "episode_deadline"
            return
        started = time.monotonic()
        token_ids, logprobs = await generate(result.prompt_ids + result.response_ids, budget)
        result.generate_s += time.monotonic() - started
        token_ids = [int(token) for token in token_ids][:budget]
        result.append(token_ids, 1, None if logprobs is None else list(logprobs)[: len(token_ids)])
        result.num_turns += 1
        started = time.monotonic()
        answer = await client.completion(result.episode_id, token_ids=token_ids)
        result.tool_s += time.monotonic() - started
        if answer.get("done"):
            result.done = True
            result.reward = float(answer.get("reward") or 0.0)
            result.end_reason = str(answer.get("end_reason") or "claim_done")
            return
        observation = [int(token) for token in answer.get("observation_token_ids") or []]
        room = limits.max_response_tokens - len(result.response_ids)
        result.append(observation[:room], 0)
        result.observation_turns += 1
        if len(observation) >= room:
            result.end_reason = "response_length"
            return


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if not isinstance(error, RolloutServiceError) else str(error)
