"""Self-check of the trainer adapters against the INSTALLED engine and a running rollout service.

    python -m progagent_rl.check verl  --service http://127.0.0.1:8700 [--recipe run_gspo.sh] [--sft-recipe sft.sh]
    python -m progagent_rl.check swift --service http://127.0.0.1:8700 [--recipe swift_grpo.sh] [--sft-recipe sft.sh]
                                       [--rl-data data/rl-ptc/train.jsonl]

verl: the SFT recipe's overrides composed onto verl's sft_trainer config and built into verl's config dataclasses;
the GSPO recipe's arguments composed onto verl's ppo_trainer config and validated by verl's validate_config; one
episode through the real `AgentLoopWorker` code path (registry from the recipe's agent-loop yaml, hydra
instantiation, post-processing, `_postprocess` into a `DataProto`) with a scripted `generate`; GRPO advantages
and the GSPO loss on CPU with verl's functions. swift: both recipes' flags parsed against ms-swift's argument
classes; exported rows through ms-swift's request code; an episode through the scheduler's `run()` (ms-swift's own
multi-turn loop) with a scripted engine. One line per check; exit status 1 when any check fails. Generation is
scripted: this checks the wiring, not a model."""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import traceback
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .client import ServiceClient

HERE = os.path.dirname(os.path.abspath(__file__))
RECIPES = os.path.join(HERE, "recipes")
TASK = os.environ.get("PROGAGENT_CHECK_TASK", "retail.apply-supplier-recall")
#: What the scripted policy writes: a program, then claim_done (tokenised by the service).
SCRIPT = [
    '<tool_call>\n{"name": "programmatic_tool_call", "arguments": {"code": "print(6 * 7)"}}\n</tool_call><|im_end|>',
    '<tool_call>\n{"name": "claim_done", "arguments": {"answer": "done"}}\n</tool_call><|im_end|>',
]


class Report:
    """Prints one line per check and remembers failures."""

    def __init__(self) -> None:
        self.failures = 0

    def run(self, name: str, check: Callable[[], str]) -> Any:
        try:
            detail = check()
        except Exception as error:  # noqa: BLE001 - a failed check is reported, the next one runs
            self.failures += 1
            last = traceback.extract_tb(error.__traceback__)[-1]
            print(f"FAIL {name}: {type(error).__name__}: {error} ({os.path.basename(last.filename)}:{last.lineno})")
            return None
        print(f"ok   {name}: {detail}")
        return detail

    def skip(self, name: str, why: str) -> None:
        print(f"skip {name}: {why}")


def recipe_arguments(recipe: str, environ: Optional[Dict[str, str]] = None) -> List[str]:
    """The arguments a recipe passes to its engine (it writes them instead of running when asked)."""
    with tempfile.TemporaryDirectory(prefix="progagent-check-") as folder:
        target = os.path.join(folder, "args")
        env = {**os.environ, **(environ or {}), "PROGAGENT_RECIPE_ARGS_OUT": target}
        subprocess.run(["bash", recipe], env=env, check=True, timeout=60, stdout=subprocess.DEVNULL)
        with open(target, "rb") as handle:
            return [item for item in handle.read().decode("utf-8").split("\0") if item]


async def scripted_tokens(client: ServiceClient) -> List[List[int]]:
    """The scripted turns as the service's tokenizer encodes them."""
    turns = []
    for text in SCRIPT:
        _, answer = await client.request("POST", "/v1/tokenize", {"text": text})
        turns.append([int(token) for token in answer["token_ids"]])
    return turns


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m progagent_rl.check", description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", choices=("verl", "swift"))
    parser.add_argument("--service", default=os.environ.get("PROGAGENT_ROLLOUT_URLS", "http://127.0.0.1:8700").split(",")[0])
    parser.add_argument("--recipe", help="the RL recipe to validate (default: the package's own)")
    parser.add_argument("--sft-recipe", default=os.path.join(RECIPES, "sft.sh"), help="the SFT recipe to validate")
    parser.add_argument("--rl-data", help="swift: a JSONL `export rl --format ms-swift` wrote, run through ms-swift's request code")
    options = parser.parse_args(argv)
    os.environ["PROGAGENT_ROLLOUT_URLS"] = options.service
    report = Report()
    report.run("service", lambda: _health(options.service))
    if options.engine == "verl":
        from .check_verl import check_verl

        check_verl(report, options.service, options.recipe or os.path.join(RECIPES, "run_gspo.sh"), options.sft_recipe)
    else:
        from .check_swift import check_swift

        check_swift(report, options.service, options.recipe or os.path.join(RECIPES, "swift_grpo.sh"), options.sft_recipe, options.rl_data)
    print(f"{'FAILED' if report.failures else 'passed'}: {options.engine} ({report.failures} failing checks)")
    return 1 if report.failures else 0


def _health(url: str) -> str:
    async def probe() -> Tuple[Dict[str, Any], int]:
        client = ServiceClient(url, timeout_s=30)
        try:
            health = await client.health()
            _, tasks = await client.request("GET", "/v1/tasks")
            return health, len(tasks.get("tasks", tasks) if isinstance(tasks, dict) else tasks)
        finally:
            await client.close()

    health, count = asyncio.run(probe())
    if not health.get("ok"):
        raise RuntimeError(f"{url}/healthz answered {health}")
    return f"{url} healthy, {count} tasks"


if __name__ == "__main__":
    sys.exit(main())
