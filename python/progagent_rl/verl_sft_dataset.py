"""verl's multi-turn SFT dataset for `progagent export sft --format verl` parquet (`data.custom_cls` in
recipes/sft.sh).

The export writes each row's `tools` as a JSON string: tool schemas differ per task, and a parquet struct column
would need one schema for all of them (every task's fields, null-filled in the others, and the nulls would be
rendered into the prompt). verl's MultiTurnSFTDataset passes the column to apply_chat_template unchanged, which
accepts only a list of JSON-schema objects; this subclass parses the strings first. Loaded by path through
verl's `load_extern_object`, so it imports nothing from progagent_rl. verl is imported only here.
"""

from __future__ import annotations

import json
from typing import Any

from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset


def parse_tools(value: Any) -> Any:
    """A row's tools as apply_chat_template takes them: a JSON string becomes its list; None and lists pass."""
    if isinstance(value, (str, bytes)):
        tools = json.loads(value)
        if not isinstance(tools, list) or not all(isinstance(tool, dict) for tool in tools):
            raise ValueError(f"a row's tools must be a JSON list of tool schemas, got {str(value)[:80]!r}")
        return tools
    return value


class ProgAgentSFTDataset(MultiTurnSFTDataset):
    """MultiTurnSFTDataset whose `tools` column may hold JSON strings."""

    def _read_files_and_process(self) -> None:
        super()._read_files_and_process()
        if self.tools is not None:
            self.tools = [parse_tools(tools) for tools in self.tools]
