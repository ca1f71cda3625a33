"""progagent_rl/verl_sft_dataset.py (recipes/sft.sh's data.custom_cls) over a stand-in MultiTurnSFTDataset.

verl's MultiTurnSFTDataset hands a row's `tools` to apply_chat_template unchanged, and the template accepts only a
list of schemas; the export writes them as JSON strings. The subclass must turn them into lists, loaded as verl
loads it (by file path, not as part of progagent_rl).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import types
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
DATASET_FILE = os.path.join(os.path.dirname(HERE), "progagent_rl", "verl_sft_dataset.py")
TOOLS = [{"type": "function", "function": {"name": "programmatic_tool_call", "parameters": {"type": "object"}}}]


class MultiTurnSFTDataset:
    """What the subclass relies on: `_read_files_and_process` fills `self.tools` from the parquet column."""

    def __init__(self, column):
        self.column = column
        self._read_files_and_process()

    def _read_files_and_process(self):
        self.tools = list(self.column) if self.column is not None else None


def load_dataset_module() -> types.ModuleType:
    """The file as verl's load_extern_object loads it, with the stand-in base class in place."""
    base = types.ModuleType("verl.utils.dataset.multiturn_sft_dataset")
    base.MultiTurnSFTDataset = MultiTurnSFTDataset
    modules = {name: types.ModuleType(name) for name in ("verl", "verl.utils", "verl.utils.dataset")}
    with mock.patch.dict(sys.modules, {**modules, base.__name__: base}):
        spec = importlib.util.spec_from_file_location("custom_module", DATASET_FILE)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module


class ProgAgentSFTDatasetTests(unittest.TestCase):
    def test_tools_strings_become_lists(self) -> None:
        module = load_dataset_module()
        dataset = module.ProgAgentSFTDataset([json.dumps(TOOLS), None, TOOLS])
        self.assertEqual(dataset.tools, [TOOLS, None, TOOLS])
        self.assertIsNone(module.ProgAgentSFTDataset(None).tools)

    def test_tools_that_are_not_a_list_of_schemas_are_refused(self) -> None:
        module = load_dataset_module()
        for bad in ('{"name": "x"}', '["x"]'):
            with self.assertRaisesRegex(ValueError, "JSON list of tool schemas"):
                module.ProgAgentSFTDataset([bad])


if __name__ == "__main__":
    unittest.main()
