"""The ms-swift half of `python -m progagent_rl.check` (imports the installed ms-swift; see check.py)."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Dict, List, Optional, Tuple

from .check import TASK, Report, recipe_arguments, scripted_tokens
from .client import ServiceClient

#: The argument classes of the commands the recipes run (what `swift <command>` parses its flags into).
COMMANDS = {"rollout": "RolloutArguments", "rlhf": "RLHFArguments", "sft": "SftArguments"}
#: What Hugging Face's argument parser (which ms-swift uses) reads as a boolean.
BOOLEAN_WORDS = {"yes", "no", "true", "false", "t", "f", "y", "n", "1", "0"}


def argument_fields(command: str) -> Dict[str, Any]:
    """The flags of `swift <command>`: the dataclass fields of ms-swift's argument class (its bases included,
    transformers' TrainingArguments among them) with their resolved types."""
    import dataclasses
    import typing

    from swift import arguments

    cls = getattr(arguments, COMMANDS[command])
    hints: Dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        try:
            hints.update(typing.get_type_hints(klass))
        except Exception:  # noqa: BLE001 - an unresolvable annotation keeps its raw form
            hints.update(getattr(klass, "__annotations__", {}))
    return {item.name: hints.get(item.name, item.type) for item in dataclasses.fields(cls)}


def value_problem(annotation: Any, value: str) -> Optional[str]:
    """Why the command-line value does not parse as the field's type (as HfArgumentParser converts it), or None."""
    import typing

    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        choices = [str(item) for item in arguments if item is not None]
        return None if value in choices else f"expected one of {choices}"
    if origin is typing.Union:
        options = [item for item in arguments if item is not type(None)]
        if str in options or any(value_problem(item, value) is None for item in options):
            return None
        return value_problem(options[0], value)
    if origin in (list, typing.List):
        return value_problem(arguments[0], value) if arguments else None
    if annotation is bool:
        return None if value.lower() in BOOLEAN_WORDS else "expected a boolean"
    if annotation in (int, float):
        try:
            annotation(value)
        except ValueError:
            return f"expected {'an integer' if annotation is int else 'a number'}"
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


def check_flags(commands: Dict[str, Dict[str, str]]) -> str:
    problems = []
    for command, flags in commands.items():
        fields = argument_fields(command)
        for flag, value in flags.items():
            if flag not in fields:
                problems.append(f"swift {command} has no --{flag} ({COMMANDS[command]})")
            elif value_problem(fields[flag], value) is not None:
                problems.append(f"swift {command} --{flag} {value}: {value_problem(fields[flag], value)}")
    if "sft" in commands:
        wanted = sft_conditions(commands["sft"])
    else:
        wanted = grpo_conditions(commands)
    problems += [f"missing: {name}" for name, present in wanted.items() if not present]
    if problems:
        raise ValueError("; ".join(problems))
    classes = " / ".join(COMMANDS[command] for command in commands)
    return f"{sum(len(flags) for flags in commands.values())} flags parse as fields of {classes}; {len(wanted)} recipe conditions hold"


def sft_conditions(sft: Dict[str, str]) -> Dict[str, bool]:
    return {
        "--add_non_thinking_prefix false (text parity with Qwen3's template)": sft.get("add_non_thinking_prefix") == "false",
        "--agent_template hermes": sft.get("agent_template") == "hermes",
        "--max_length of at least 32768": _number(sft.get("max_length", "0")) >= 32768,
        "--truncation_strategy delete": sft.get("truncation_strategy") == "delete",
        "data files that export writes (train.jsonl, train.val.jsonl)": sft.get("dataset", "").endswith("/train.jsonl")
        and sft.get("val_dataset", "").endswith("/train.val.jsonl"),
    }


def _number(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return 0.0  # reported by the type check


def grpo_conditions(commands: Dict[str, Dict[str, str]]) -> Dict[str, bool]:
    train, rollout = commands.get("rlhf", {}), commands.get("rollout", {})
    return {
        "rlhf --vllm_server_pass_dataset true": train.get("vllm_server_pass_dataset") == "true",
        "the same --multi_turn_scheduler in both": train.get("multi_turn_scheduler") == rollout.get("multi_turn_scheduler") == "progagent_scheduler",
        "--max_completion_length above the default 512": _number(train.get("max_completion_length", "512")) > 512,
        "--importance_sampling_level sequence (GSPO)": train.get("importance_sampling_level") == "sequence",
        "--external_plugins that exists": os.path.isfile(rollout.get("external_plugins", "")),
        "data files that export writes (train.jsonl, train.val.jsonl)": train.get("dataset", "").endswith("/train.jsonl")
        and train.get("val_dataset", "").endswith("/train.val.jsonl"),
        "rlhf --use_gym_env true (total_reward is the reward)": train.get("use_gym_env") == "true",
    }


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


def check_swift(report: Report, service: str, recipe: str, sft_recipe: str, rl_data: Optional[str]) -> None:
    if report.run("import ms-swift", _import_swift) is None:
        return
    state: Dict[str, Any] = {}
    if report.run("recipe arguments", lambda: _arguments(recipe, state)) is not None:
        report.run("flags against ms-swift's argument classes", lambda: _flags(state))
    report.run("SFT recipe flags", lambda: _sft_flags(sft_recipe))
    if report.run("plugin registers", lambda: _plugin(state)) is None:
        return
    if rl_data is None:
        report.skip("exported rows", "no --rl-data (a file `export rl --format ms-swift` wrote); a built-in row is used")
        state["row"] = dict(DEFAULT_ROW)
    else:
        report.run("exported rows", lambda: _rows(rl_data, state))
    report.run("scheduler run() (episode)", lambda: _episode(service, state))
    report.run("scheduler run() (service down)", lambda: _down(service, state))
    report.run("scheduler run() (cut by length)", lambda: _cut(service, state))


#: A row as `export rl --format ms-swift` writes it, minus the prompt and tools (which the episode replaces).
DEFAULT_ROW: Dict[str, Any] = {
    "messages": [{"role": "user", "content": "(replaced by the episode's prompt)"}],
    "extra_info": {"task": TASK, "scale": "v0", "seed": 0, "harness": "ptc", "split": "train", "index": 0},
    "env_config": {"name": "progagent"},
}


def _rows(path: str, state: Dict[str, Any]) -> str:
    with open(path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    if not rows:
        raise ValueError(f"{path} has no rows")
    state["row"] = next((row for row in rows if row["extra_info"]["task"] == TASK), rows[0])
    request = _request(state["row"])
    if not isinstance(request.tools, list) or set(request.data_dict) != {"extra_info", "env_config"}:
        raise AssertionError(f"ms-swift's request from the row: tools {type(request.tools)}, data_dict {request.data_dict}")
    return (
        f"{len(rows)} rows in {os.path.basename(path)}; ms-swift's OnPolicySample -> RolloutInferRequest: "
        f"{len(request.tools)} tools parsed, data_dict {sorted(request.data_dict)}"
    )


def _request(row: Dict[str, Any]) -> Any:
    """The rollout request ms-swift's trainer sends for a row with --vllm_server_pass_dataset true."""
    from swift.rl_core.data import OnPolicySample

    return OnPolicySample.from_row(row).to_infer_request(include_extra=True)


def _sft_flags(recipe: str) -> str:
    return check_flags(split_commands(recipe_arguments(recipe, {"ENGINE": "ms-swift"})))


def _import_swift() -> str:
    import swift
    from swift.version import __version__

    return f"ms-swift {__version__} from {os.path.dirname(swift.__file__)}"


def _arguments(recipe: str, state: Dict[str, Any]) -> str:
    state["commands"] = split_commands(recipe_arguments(recipe))
    return f"swift {' / swift '.join(state['commands'])} from {recipe}"


def _flags(state: Dict[str, Any]) -> str:
    return check_flags(state["commands"])


def _plugin(state: Dict[str, Any]) -> str:
    """The recipe's --external_plugins file loaded as `swift rollout` loads it (ms-swift's import_external_file:
    its folder on sys.path, imported as a top-level module), and the scheduler the recipe names in the registry."""
    import sys

    from swift.rollout.gym_env import envs
    from swift.rollout.multi_turn import multi_turns
    from swift.utils import import_external_file

    rollout = state.get("commands", {}).get("rollout", {})
    path = rollout.get("external_plugins") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "swift_plugin.py")
    name = rollout.get("multi_turn_scheduler", "progagent_scheduler")
    module = import_external_file(path)
    scheduler, env = multi_turns.get(name), envs.get("progagent")
    if scheduler is not getattr(module, "ProgAgentScheduler", None) or env is not getattr(module, "ProgAgentEnv", None):
        raise AssertionError(f"{path} did not register multi_turns[{name!r}] and envs['progagent']")
    state["scheduler"], state["plugin"] = scheduler, sys.modules[scheduler.__module__]
    return f"{os.path.basename(path)} imported by import_external_file as {module.__name__!r}; multi_turns[{name!r}], envs['progagent']"


def _run(state: Dict[str, Any], service: str, url: str, finish_reason: str = "stop", max_turns: int = 100) -> Tuple[Any, ScriptedEngine]:
    from swift.infer_engine.protocol import RequestConfig

    from .check import SCRIPT

    async def scenario() -> Tuple[Any, ScriptedEngine]:
        client = ServiceClient(service)
        try:
            turns = await scripted_tokens(client)
        finally:
            await client.close()
        os.environ["PROGAGENT_ROLLOUT_URLS"] = url
        state["plugin"]._POOL = None
        engine = ScriptedEngine(turns, SCRIPT, finish_reason)
        scheduler = state["scheduler"](infer_engine=engine, max_turns=max_turns)
        request = _request(state["row"])
        output = await scheduler.run(request, RequestConfig(max_tokens=4096))
        if scheduler.episodes:
            raise AssertionError(f"episodes left open: {list(scheduler.episodes)}")
        return output, engine

    return asyncio.run(scenario())


def _episode(service: str, state: Dict[str, Any]) -> str:
    output, engine = _run(state, service, service)
    infos, first = output.rollout_infos, engine.requests[0]
    if first["messages"][0]["role"] != "system" or not first["tools"]:
        raise AssertionError("the model did not see the episode's system prompt and tools")
    row = state["row"]
    if "tools" in row and (json.loads(row["tools"]) != first["tools"] or row["messages"] != first["messages"]):
        # ms-swift's trainer encodes the rollout's messages with the ROW's tools: they must be the episode's.
        raise AssertionError("the exported row's prompt or tools differ from the episode's")
    if infos.get("progagent_end_reason") != "claim_done" or "total_reward" not in infos or len(engine.requests) != 2:
        raise AssertionError(f"{len(engine.requests)} generations, rollout_infos {infos}")
    if "<tool_response>" not in engine.requests[1]["messages"][-1]["content"]:
        raise AssertionError("the tool response did not reach the second turn")
    same = " (= the exported row's)" if "tools" in row else ""
    return (
        f"{infos['num_turns']} turns, {len(engine.requests)} generations (none after claim_done), total_reward "
        f"{infos['total_reward']}, prompt and tools {len(first['tools'])}{same}, tool calls {infos.get('progagent_tool_calls')}"
    )


def _down(service: str, state: Dict[str, Any]) -> str:
    output, engine = _run(state, service, "http://127.0.0.1:9")
    infos = output.rollout_infos
    if infos.get("total_reward") != 0.0 or infos.get("progagent_end_reason") != "service_error":
        raise AssertionError(f"rollout_infos {infos}")
    return f"total_reward 0.0, end_reason service_error after {len(engine.requests)} generation"


def _cut(service: str, state: Dict[str, Any]) -> str:
    output, engine = _run(state, service, service, finish_reason="length")
    infos = output.rollout_infos
    if infos.get("total_reward") != 0.0 or infos.get("progagent_end_reason") != "response_length" or len(engine.requests) != 1:
        raise AssertionError(f"rollout_infos {infos}")
    return "finish_reason length -> total_reward 0.0, end_reason response_length, episode released"
