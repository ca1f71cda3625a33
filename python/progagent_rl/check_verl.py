"""The verl half of `python -m progagent_rl.check` (imports the installed verl; see check.py)."""

from __future__ import annotations

import asyncio
import os
from typing import Any, Dict, List

from .check import TASK, Report, recipe_arguments, scripted_tokens
from .client import ServiceClient


def compose_config(arguments: List[str]) -> Any:
    """verl's composed PPO trainer config with the recipe's overrides."""
    import verl
    from omegaconf import OmegaConf

    config = OmegaConf.load(os.path.join(os.path.dirname(verl.__file__), "trainer/config/_generated_ppo_trainer.yaml"))
    return apply_overrides(config, arguments)


def apply_overrides(config: Any, arguments: List[str]) -> Any:
    """The overrides as hydra applies them: a key without `+` must exist; `+key` adds one."""
    from omegaconf import OmegaConf

    for argument in arguments:
        key, _, value = argument.partition("=")
        if not key.startswith("+") and not _has_key(config, key):
            raise KeyError(f"hydra would refuse '{argument}': {key} is not a verl config key (add it with '+')")
        config = OmegaConf.merge(config, OmegaConf.from_dotlist([f"{key.lstrip('+')}={value}"]))
    return config


def _has_key(config: Any, dotted: str) -> bool:
    node = config
    for part in dotted.split("."):
        if not hasattr(node, "keys") or part not in node.keys():
            return False
        node = node._get_node(part)
    return True


def check_config(config: Any) -> str:
    """verl's validate_config plus the long-context conditions verl only meets at run time."""
    from omegaconf import OmegaConf
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import omega_conf_to_dataclass, validate_config

    missing = sorted(key for key in OmegaConf.missing_keys(config) if key.startswith("actor_rollout_ref."))
    if missing:
        raise ValueError(f"mandatory keys left '???': {missing}")
    validate_config(config, use_reference_policy=need_reference_policy(config), use_critic=need_critic(config))
    rollout = omega_conf_to_dataclass(config.actor_rollout_ref.rollout)
    actor = config.actor_rollout_ref.actor
    context = int(rollout.prompt_length) + int(rollout.response_length)
    problems = []
    if rollout.max_model_len is None or int(rollout.max_model_len) < context:
        problems.append(f"rollout.max_model_len {rollout.max_model_len} < prompt + response {context}")
    if actor.use_dynamic_bsz and int(actor.ppo_max_token_len_per_gpu) < context:
        problems.append(f"actor.ppo_max_token_len_per_gpu {actor.ppo_max_token_len_per_gpu} < {context}")
    if rollout.log_prob_use_dynamic_bsz and int(rollout.log_prob_max_token_len_per_gpu) < context:
        problems.append(f"rollout.log_prob_max_token_len_per_gpu {rollout.log_prob_max_token_len_per_gpu} < {context}")
    for name in ("train_files", "val_files"):
        if not str(config.data[name]).endswith(".parquet"):
            problems.append(f"data.{name} {config.data[name]} does not end in .parquet")
    env_vars = OmegaConf.select(config, "ray_kwargs.ray_init.runtime_env.env_vars", default={}) or {}
    if "PROGAGENT_ROLLOUT_URLS" not in env_vars:
        problems.append("PROGAGENT_ROLLOUT_URLS does not reach the Ray workers (ray_init.runtime_env.env_vars)")
    if problems:
        raise ValueError("; ".join(problems))
    return (
        f"validate_config passed; rollout {rollout.name}/{rollout.mode}, prompt {rollout.prompt_length} + response "
        f"{rollout.response_length} <= max_model_len {rollout.max_model_len}, loss {actor.policy_loss.loss_mode} "
        f"clip {actor.clip_ratio_low}/{actor.clip_ratio_high} {actor.loss_agg_mode}, data {config.data.train_files}"
    )


class ServiceTokenizer:
    """The part of a Hugging Face tokenizer verl's agent-loop code calls (encode, special ids, pad), backed by
    the rollout service's tokenizer (the policy's, Qwen3 by default) so the check needs no model download."""

    padding_side = "right"

    def __init__(self, service: str):
        self.service = service.rstrip("/")
        self.chat_template = None
        self.pad_token_id = self.convert_tokens_to_ids("<|endoftext|>")
        self.eos_token_id = self.convert_tokens_to_ids("<|im_end|>")

    def encode(self, text: str, add_special_tokens: bool = False) -> List[int]:
        import json
        import urllib.request

        request = urllib.request.Request(
            f"{self.service}/v1/tokenize", json.dumps({"text": text}).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return [int(token) for token in json.loads(answer.read())["token_ids"]]

    def convert_tokens_to_ids(self, token: str) -> int:
        ids = self.encode(token)
        if len(ids) != 1:
            raise ValueError(f"{token!r} is not one token of the service's tokenizer: {ids}")
        return ids[0]

    def pad(self, encoded: Dict[str, List[int]], *, padding: str, max_length: int, return_tensors: str = "pt",
            return_attention_mask: bool = True) -> Dict[str, Any]:
        import torch

        tokens = list(encoded["input_ids"])
        filler = [self.pad_token_id] * max(0, max_length - len(tokens))
        ones, zeros = [1] * len(tokens), [0] * len(filler)
        ids, mask = (filler + tokens, zeros + ones) if self.padding_side == "left" else (tokens + filler, ones + zeros)
        result = {"input_ids": torch.tensor([ids], dtype=torch.long)}
        if return_attention_mask:
            result["attention_mask"] = torch.tensor([mask], dtype=torch.long)
        return result


class ScriptedServer:
    """verl's LLM server client for the check: answers `generate` with the scripted turns as a verl TokenOutput,
    with the weight versions vLLM's server puts in extra_fields."""

    def __init__(self, turns: List[List[int]], global_steps: int = 3):
        self.turns, self.global_steps = turns, global_steps
        self.calls: Dict[str, int] = {}
        self.sampling_params: List[Dict[str, Any]] = []

    async def generate(self, request_id: str, *, prompt_ids: List[int], sampling_params: Dict[str, Any], **_: Any):
        from verl.workers.rollout.replica import TokenOutput

        self.sampling_params.append(dict(sampling_params))
        turn = self.calls.get(request_id, 0)
        self.calls[request_id] = turn + 1
        tokens = self.turns[min(turn, len(self.turns) - 1)][: int(sampling_params.get("max_tokens", 1 << 30))]
        steps = self.global_steps + turn  # weights may change between turns of one episode
        return TokenOutput(
            token_ids=tokens,
            log_probs=[-0.25] * len(tokens),
            extra_fields={"global_steps": steps, "min_global_steps": steps, "max_global_steps": steps},
        )


def make_worker(config: Any, server: ScriptedServer, tokenizer: ServiceTokenizer) -> Any:
    """An AgentLoopWorker with verl's own methods, set up as its __init__ would be short of loading a model."""
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop import agent_loop
    from verl.experimental.agent_loop.utils import resolve_config_path
    from verl.utils.config import omega_conf_to_dataclass
    from verl.utils.dataset.rl_dataset import RLHFDataset

    worker = agent_loop.AgentLoopWorker.__new__(agent_loop.AgentLoopWorker)
    worker.config, worker.llm_client, worker.teacher_client = config, server, None
    worker.reward_loop_worker_handles = None
    worker.rollout_config = omega_conf_to_dataclass(config.actor_rollout_ref.rollout)
    worker.dataset_cls, worker.tokenizer, worker.processor = RLHFDataset, tokenizer, None
    worker.hf_model_type, worker.mm_processor_kwargs = "qwen3", {}
    worker.distillation_enabled, worker.tools = False, []
    path = resolve_config_path(worker.rollout_config.agent.agent_loop_config_path)
    for entry in OmegaConf.load(path):
        agent_loop._agent_loop_registry[entry.name] = entry
    return worker


def row(index: int) -> Dict[str, Any]:
    """An `export rl` row as verl's dataset hands it to an agent loop (the non-tensor fields; the V1 trainer adds
    the step the row was drawn at)."""
    return {
        "agent_name": "progagent_agent",
        "raw_prompt": [{"role": "user", "content": "(the service renders the real prompt)"}],
        "extra_info": {"task": TASK, "scale": "v0", "seed": index, "harness": "ptc", "split": "train", "index": index},
        "index": index,
        "data_source": "progagent/retail",
        "global_steps": 3,
    }


async def run_episodes(worker: Any, rows: List[Dict[str, Any]], urls: List[str]) -> List[Any]:
    """Each row through verl's `_run_agent_loop` (hydra-instantiated loop, then verl's post-processing),
    the i-th against urls[i]."""
    from progagent_rl import verl_agent_loop

    outputs = []
    for index, (fields, url) in enumerate(zip(rows, urls)):
        os.environ["PROGAGENT_ROLLOUT_URLS"] = url
        verl_agent_loop._POOL = None
        trajectory = {"step": 1, "sample_index": index, "rollout_n": 0, "validate": False}
        outputs.append(await worker._run_agent_loop({"temperature": 1.0, "logprobs": True}, trajectory, **fields))
    return outputs


def check_verl(report: Report, service: str, recipe: str, sft_recipe: str = "") -> None:
    version = report.run("import verl", _import_verl)
    if version is None:
        return
    if sft_recipe:
        check_sft(report, sft_recipe)
    state: Dict[str, Any] = {}
    if report.run("recipe arguments", lambda: _arguments(recipe, state)) is None:
        return
    report.run("compose (hydra overrides)", lambda: _compose(state["arguments"], state))
    if state.get("composed") is None or report.run("validate_config", lambda: check_config(state["composed"])) is None:
        return
    report.run("agent loops (episode, service down)", lambda: _episodes(state, service))
    if "outputs" not in state:
        return
    report.run("V1 trainer tags (weight versions)", lambda: _v1_tags(state))
    report.run("over-long prompt", lambda: _overlong(state, service))
    report.run("_postprocess -> DataProto", lambda: _postprocess(state))
    if "data" in state:
        report.run("GRPO advantages", lambda: _grpo(state))
        report.run("GSPO loss (CPU)", lambda: _gspo(state))


def check_sft(report: Report, sft_recipe: str) -> None:
    from .check_verl_sft import check_sft_config, compose_sft_config, sft_recipe_overrides

    state: Dict[str, Any] = {}

    def compose() -> str:
        arguments = sft_recipe_overrides(recipe_arguments(sft_recipe, {"ENGINE": "verl"}))
        state["config"] = compose_sft_config(arguments)
        return f"{len(arguments)} overrides from {os.path.basename(sft_recipe)} applied to verl's sft_trainer_engine config"

    if report.run("SFT recipe (compose)", compose) is not None:
        report.run("SFT recipe (verl's SFT config)", lambda: check_sft_config(state["config"]))


def _import_verl() -> str:
    import verl

    return f"verl {verl.__version__} from {os.path.dirname(verl.__file__)}"


def _arguments(recipe: str, state: Dict[str, Any]) -> str:
    state["arguments"] = recipe_arguments(recipe)
    if not state["arguments"]:
        raise ValueError(f"{recipe} passed no arguments")
    return f"{len(state['arguments'])} from {recipe}"


def _compose(arguments: List[str], state: Dict[str, Any]) -> str:
    state["composed"] = compose_config(arguments)
    return f"{len(arguments)} overrides applied to verl's ppo_trainer config"


def _episodes(state: Dict[str, Any], service: str) -> str:
    async def scenario() -> List[Any]:
        client = ServiceClient(service)
        try:
            turns = await scripted_tokens(client)
        finally:
            await client.close()
        state["server"] = ScriptedServer(turns)
        worker = make_worker(state["composed"], state["server"], state["tokenizer"])
        state["worker"] = worker
        # The second episode's service is a closed port: the loop must return, not raise.
        return await run_episodes(worker, [row(0), row(1)], [service, "http://127.0.0.1:9"])

    state["tokenizer"] = ServiceTokenizer(service)
    outputs = asyncio.run(scenario())
    good, failed = outputs
    info, lost = good.extra_fields["reward_extra_info"], failed.extra_fields["reward_extra_info"]
    if good.extra_fields["end_reason"] != "claim_done" or info["tool_calls"] < 1:
        raise AssertionError(f"episode ended {good.extra_fields['end_reason']} with {info}")
    if lost["service_error"] != 1.0 or failed.reward_score != 0.0 or set(info) != set(lost):
        raise AssertionError(f"service-down episode: reward {failed.reward_score}, {lost}")
    budgets = [params.get("max_tokens") for params in state["server"].sampling_params]
    state["outputs"] = outputs
    return (
        f"claim_done after {good.num_turns} turns, reward {good.reward_score}, response "
        f"{int(good.attention_mask[0, good.prompt_ids.shape[1]:].sum())} tokens ({int(good.response_mask.sum())} "
        f"trained), max_tokens {budgets}; service down -> reward {failed.reward_score}, "
        f"end_reason {failed.extra_fields['end_reason']}"
    )


def _v1_tags(state: Dict[str, Any]) -> str:
    import numpy as np

    fields = [output.extra_fields for output in state["outputs"]]
    low = np.array([field.get("min_global_steps") for field in fields], dtype=int)
    high = np.array([field.get("max_global_steps") for field in fields], dtype=int)
    return f"min_global_steps {low.tolist()}, max_global_steps {high.tolist()} (as int arrays, as the V1 trainer reads them)"


def _overlong(state: Dict[str, Any], service: str) -> str:
    from omegaconf import OmegaConf

    config = OmegaConf.merge(state["composed"], OmegaConf.from_dotlist(["actor_rollout_ref.rollout.prompt_length=64"]))
    worker = make_worker(config, state["server"], state["tokenizer"])
    (output,) = asyncio.run(run_episodes(worker, [row(2)], [service]))
    if output.reward_score != 0.0 or output.extra_fields["end_reason"] != "prompt_length":
        raise AssertionError(f"reward {output.reward_score}, end_reason {output.extra_fields['end_reason']}")
    return f"prompt capped to {output.prompt_ids.shape[1]} tokens, reward 0, end_reason prompt_length, nothing generated"


def _postprocess(state: Dict[str, Any]) -> str:
    data = state["worker"]._postprocess(state["outputs"], input_non_tensor_batch=None, validate=False)
    state["data"] = data
    shapes = {key: tuple(value.shape) for key, value in data.batch.items()}
    extra = sorted(key for key in data.non_tensor_batch if key in ("episode_reward", "ptc_errors", "service_error"))
    return f"DataProto {shapes['input_ids']} with {sorted(shapes)}; reward_extra_info keys {extra}"


def _grpo(state: Dict[str, Any]) -> str:
    import numpy as np
    from verl.trainer.ppo import core_algos

    data = state["data"]
    advantages, _ = core_algos.compute_grpo_outcome_advantage(
        token_level_rewards=data.batch["rm_scores"],
        response_mask=data.batch["response_mask"],
        index=np.array(["group-0"] * len(data), dtype=object),
    )
    state["advantages"] = advantages
    return f"advantages {tuple(advantages.shape)}, finite {bool(advantages.isfinite().all())}"


def _gspo(state: Dict[str, Any]) -> str:
    import torch
    from verl.trainer.ppo import core_algos
    from verl.utils.config import omega_conf_to_dataclass

    data, actor = state["data"], omega_conf_to_dataclass(state["composed"].actor_rollout_ref.actor)
    old = data.batch["rollout_log_probs"]
    new = (old + 0.01 * torch.randn_like(old)).requires_grad_(True)
    loss_fn = core_algos.get_policy_loss_fn(actor.policy_loss.loss_mode)
    loss, metrics = loss_fn(
        old_log_prob=old, log_prob=new, advantages=state["advantages"], response_mask=data.batch["response_mask"],
        loss_agg_mode=actor.loss_agg_mode, config=actor,
    )
    loss.backward()
    if not torch.isfinite(loss) or new.grad is None:
        raise AssertionError(f"loss {loss}")
    clip = metrics.get("actor/pg_clipfrac", metrics.get("pg_clipfrac"))
    return f"{actor.policy_loss.loss_mode} loss {float(loss):.5f}, gradient finite {bool(torch.isfinite(new.grad).all())}, clipfrac {clip}"
