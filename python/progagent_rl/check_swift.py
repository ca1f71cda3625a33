"""The ms-swift half of `python -m progagent_rl.check` (imports the installed ms-swift; see check.py)."""

from __future__ import annotations

import ast
import asyncio
import os
from typing import Any, Dict, List, Optional, Tuple

from .check import TASK, Report, recipe_arguments, scripted_tokens
from .client import ServiceClient

#: Flags of transformers' TrainingArguments, which ms-swift's argument classes extend (transformers is not
#: part of ms-swift's source, so these are named here).
HF_TRAINING_ARGUMENTS = {
    "per_device_train_batch_size", "gradient_accumulation_steps", "max_steps", "learning_rate", "weight_decay",
    "lr_scheduler_type", "warmup_steps", "warmup_ratio", "num_train_epochs", "output_dir", "report_to",
    "gradient_checkpointing", "deepspeed", "logging_steps", "save_steps", "eval_steps", "bf16",
}
#: The argument classes of the two commands the recipe runs.
COMMANDS = {"rollout": "RolloutArguments", "rlhf": "RLHFArguments"}


def argument_schema(swift_root: str) -> Dict[str, Dict[str, Optional[List[str]]]]:
    """For each command, its flags (the dataclass fields of its argument class and every base, read from
    ms-swift's source) and, for a `Literal[...]` field, the values it accepts."""
    classes: Dict[str, Tuple[List[str], Dict[str, Optional[List[str]]]]] = {}
    for folder in ("arguments", "rlhf_trainers", "trainers"):
        for directory, _, names in os.walk(os.path.join(swift_root, folder)):
            for name in names:
                if name.endswith(".py"):
                    with open(os.path.join(directory, name), encoding="utf-8") as handle:
                        _collect(ast.parse(handle.read()), classes)
    schema = {}
    for command, root in COMMANDS.items():
        fields: Dict[str, Optional[List[str]]] = {}
        pending, seen = [root], set()
        while pending:
            name = pending.pop()
            if name in seen or name not in classes:
                continue
            seen.add(name)
            bases, own = classes[name]
            fields = {**own, **fields}
            pending.extend(bases)
        schema[command] = fields
    return schema


def _collect(tree: ast.AST, classes: Dict[str, Tuple[List[str], Dict[str, Optional[List[str]]]]]) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [base.id if isinstance(base, ast.Name) else getattr(base, "attr", "") for base in node.bases]
            fields = {
                item.target.id: _literal_values(item.annotation)
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
            classes[node.name] = (bases, fields)


def _literal_values(annotation: ast.AST) -> Optional[List[str]]:
    for node in ast.walk(annotation):
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", None) == "Literal":
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return [str(item.value) for item in items if isinstance(item, ast.Constant)]
    return None


def split_commands(arguments: List[str]) -> Dict[str, Dict[str, str]]:
    """The recipe's output (`rollout`, flags..., `rlhf`, flags...) as {command: {flag: value}}."""
    commands: Dict[str, Dict[str, str]] = {}
    current: Optional[Dict[str, str]] = None
    index = 0
    while index < len(arguments):
        item = arguments[index]
        if item in COMMANDS:
            current = commands.setdefault(item, {})
        elif item.startswith("--") and current is not None:
            value = arguments[index + 1] if index + 1 < len(arguments) and not arguments[index + 1].startswith("--") else "true"
            current[item[2:]] = value
            index += value != "true" or (index + 1 < len(arguments) and arguments[index + 1] == "true")
        else:
            raise ValueError(f"unexpected recipe argument {item!r}")
        index += 1
    return commands


def check_flags(commands: Dict[str, Dict[str, str]], schema: Dict[str, Dict[str, Optional[List[str]]]]) -> str:
    problems = []
    for command, flags in commands.items():
        known = schema[command]
        for flag, value in flags.items():
            if flag not in known and flag not in HF_TRAINING_ARGUMENTS:
                problems.append(f"swift {command} has no --{flag}")
            elif known.get(flag) and value not in known[flag]:
                problems.append(f"swift {command} --{flag} {value}: expected one of {known[flag]}")
    train, rollout = commands.get("rlhf", {}), commands.get("rollout", {})
    wanted = {
        "rlhf --vllm_server_pass_dataset true": train.get("vllm_server_pass_dataset") == "true",
        "the same --multi_turn_scheduler in both": train.get("multi_turn_scheduler") == rollout.get("multi_turn_scheduler") == "progagent_scheduler",
        "--max_completion_length above the default 512": int(train.get("max_completion_length", "512")) > 512,
        "--importance_sampling_level sequence (GSPO)": train.get("importance_sampling_level") == "sequence",
        "--external_plugins that exists": os.path.isfile(rollout.get("external_plugins", "")),
        "data files that export writes (train.jsonl, train.val.jsonl)": train.get("dataset", "").endswith("/train.jsonl")
        and train.get("val_dataset", "").endswith("/train.val.jsonl"),
    }
    problems += [f"missing: {name}" for name, present in wanted.items() if not present]
    if problems:
        raise ValueError("; ".join(problems))
    return f"{sum(len(flags) for flags in commands.values())} flags of swift {' / swift '.join(commands)} are ms-swift arguments; {len(wanted)} recipe conditions hold"


class ScriptedEngine:
    """ms-swift's inference engine as the scheduler's `run()` calls it: `infer_async` answers with the scripted
    turns as a ChatCompletionResponse carrying token ids."""

    def __init__(self, turns: List[List[int]], texts: List[str], finish_reason: str = "stop"):
        self.turns, self.texts, self.finish_reason = turns, texts, finish_reason
        self.requests: List[Any] = []

    async def infer_async(self, infer_request: Any, request_config: Any, **_: Any) -> Any:
        from swift.infer_engine.protocol import ChatCompletionResponse, ChatCompletionResponseChoice, ChatMessage, UsageInfo

        turn = sum(1 for message in infer_request.messages if message["role"] == "assistant")
        self.requests.append({"messages": [dict(m) for m in infer_request.messages], "tools": infer_request.tools})
        index = min(turn, len(self.turns) - 1)
        choice = ChatCompletionResponseChoice(
            index=0, message=ChatMessage(role="assistant", content=self.texts[index]),
            finish_reason=self.finish_reason, token_ids=self.turns[index],
        )
        usage = UsageInfo(prompt_tokens=0, completion_tokens=len(self.turns[index]), total_tokens=len(self.turns[index]))
        return ChatCompletionResponse(model="scripted", choices=[choice], usage=usage)


def check_swift(report: Report, service: str, recipe: str) -> None:
    if report.run("import ms-swift", _import_swift) is None:
        return
    state: Dict[str, Any] = {}
    if report.run("recipe arguments", lambda: _arguments(recipe, state)) is not None:
        report.run("flags against ms-swift's argument classes", lambda: _flags(state))
    if report.run("plugin registers", _plugin) is None:
        return
    report.run("scheduler run() (episode)", lambda: _episode(service, state))
    report.run("scheduler run() (service down)", lambda: _down(service))
    report.run("scheduler run() (cut by length)", lambda: _cut(service, state))


def _import_swift() -> str:
    import swift
    from swift.version import __version__

    return f"ms-swift {__version__} from {os.path.dirname(swift.__file__)}"


def _arguments(recipe: str, state: Dict[str, Any]) -> str:
    state["commands"] = split_commands(recipe_arguments(recipe))
    return f"swift {' / swift '.join(state['commands'])} from {recipe}"


def _flags(state: Dict[str, Any]) -> str:
    import swift

    return check_flags(state["commands"], argument_schema(os.path.dirname(swift.__file__)))


def _plugin() -> str:
    from swift.rollout.gym_env import envs
    from swift.rollout.multi_turn import multi_turns

    from . import swift_plugin

    if multi_turns.get("progagent_scheduler") is not swift_plugin.ProgAgentScheduler or envs.get("progagent") is not swift_plugin.ProgAgentEnv:
        raise AssertionError("progagent_scheduler / progagent are not in ms-swift's registries")
    return "multi_turns['progagent_scheduler'], envs['progagent']"


def _run(service: str, url: str, finish_reason: str = "stop", max_turns: int = 100) -> Tuple[Any, ScriptedEngine]:
    from swift.infer_engine.protocol import RequestConfig, RolloutInferRequest

    from . import swift_plugin
    from .check import SCRIPT

    async def scenario() -> Tuple[Any, ScriptedEngine]:
        client = ServiceClient(service)
        try:
            turns = await scripted_tokens(client)
        finally:
            await client.close()
        os.environ["PROGAGENT_ROLLOUT_URLS"] = url
        swift_plugin._POOL = None
        engine = ScriptedEngine(turns, SCRIPT, finish_reason)
        scheduler = swift_plugin.ProgAgentScheduler(infer_engine=engine, max_turns=max_turns)
        request = RolloutInferRequest(
            messages=[{"role": "user", "content": "(replaced by the episode's prompt)"}],
            data_dict={"extra_info": {"task": TASK, "scale": "v0", "seed": 0, "harness": "ptc"}},
            uuid="check-0",
        )
        output = await scheduler.run(request, RequestConfig(max_tokens=4096))
        if scheduler.episodes:
            raise AssertionError(f"episodes left open: {list(scheduler.episodes)}")
        return output, engine

    return asyncio.run(scenario())


def _episode(service: str, state: Dict[str, Any]) -> str:
    output, engine = _run(service, service)
    infos, first = output.rollout_infos, engine.requests[0]
    if first["messages"][0]["role"] != "system" or not first["tools"]:
        raise AssertionError("the model did not see the episode's system prompt and tools")
    if infos.get("progagent_end_reason") != "claim_done" or "total_reward" not in infos or len(engine.requests) != 2:
        raise AssertionError(f"{len(engine.requests)} generations, rollout_infos {infos}")
    if "<tool_response>" not in engine.requests[1]["messages"][-1]["content"]:
        raise AssertionError("the tool response did not reach the second turn")
    return (
        f"{infos['num_turns']} turns, {len(engine.requests)} generations (none after claim_done), total_reward "
        f"{infos['total_reward']}, tools {len(first['tools'])}, tool calls {infos.get('progagent_tool_calls')}"
    )


def _down(service: str) -> str:
    output, engine = _run(service, "http://127.0.0.1:9")
    infos = output.rollout_infos
    if infos.get("total_reward") != 0.0 or infos.get("progagent_end_reason") != "service_error":
        raise AssertionError(f"rollout_infos {infos}")
    return f"total_reward 0.0, end_reason service_error after {len(engine.requests)} generation"


def _cut(service: str, state: Dict[str, Any]) -> str:
    output, engine = _run(service, service, finish_reason="length")
    infos = output.rollout_infos
    if infos.get("total_reward") != 0.0 or infos.get("progagent_end_reason") != "response_length" or len(engine.requests) != 1:
        raise AssertionError(f"rollout_infos {infos}")
    return "finish_reason length -> total_reward 0.0, end_reason response_length, episode released"
