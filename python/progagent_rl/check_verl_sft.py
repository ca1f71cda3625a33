"""The verl SFT half of `python -m progagent_rl.check verl`: recipes/sft.sh against verl's SFT trainer config.

verl's `sft_trainer` is a hydra app on `sft_trainer_engine.yaml` (defaults: model, engine, optim, profiler). The
check composes that config from the installed verl's yaml files as hydra would, applies the recipe's overrides
(a key without `+` must exist), builds the sections the trainer turns into dataclasses (`SFTTrainer._build_config`:
engine, optim, checkpoint, profiler; their `__post_init__` checks are verl's validation), checks the model keys
against `HFModelConfig` (building it loads the model, so it is not built here), loads the dataset class the way
`create_sft_dataset` does, and checks what verl only finds out at run time (batch split, sequence budget, files).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Dict, List, Tuple

#: What the SFT trainer converts with omega_conf_to_dataclass before it touches a GPU (SFTTrainer._build_config).
DATACLASS_SECTIONS = ("engine", "optim", "checkpoint", "profiler")
#: verl's optimizer default; a full-parameter SFT of an 8B model at this rate diverges.
VERL_DEFAULT_LR = 1e-3


def compose_defaults(folder: str, name: str) -> Any:
    """A hydra config and its defaults list (`group@package: option` entries and `_self_`), merged in order."""
    from omegaconf import OmegaConf

    own = OmegaConf.load(os.path.join(folder, f"{name}.yaml"))
    defaults = own.pop("defaults", [])
    config, merged_self = OmegaConf.create(), False
    for entry in defaults:
        if entry == "_self_":
            config, merged_self = OmegaConf.merge(config, own), True
            continue
        ((key, option),) = entry.items()
        group, _, package = str(key).partition("@")
        section = OmegaConf.create()
        OmegaConf.update(section, package or group, compose_defaults(os.path.join(folder, group), str(option)), force_add=True)
        config = OmegaConf.merge(config, section)
    return config if merged_self else OmegaConf.merge(config, own)


def compose_sft_config(arguments: List[str]) -> Any:
    """verl's SFT trainer config with the recipe's hydra overrides applied."""
    import verl

    from .check_verl import apply_overrides

    folder = os.path.join(os.path.dirname(verl.__file__), "trainer", "config")
    return apply_overrides(compose_defaults(folder, "sft_trainer_engine"), arguments)


def sft_recipe_overrides(arguments: List[str]) -> List[str]:
    """The recipe's output for verl (`verl.trainer.sft_trainer`, then overrides) as the overrides."""
    if not arguments or arguments[0] != "verl.trainer.sft_trainer":
        raise ValueError(f"the recipe does not run verl.trainer.sft_trainer: {arguments[:1]}")
    return arguments[1:]


def build_sections(config: Any) -> Dict[str, Any]:
    """The trainer's dataclasses from the config (verl's own constructors and checks)."""
    from verl.utils.config import omega_conf_to_dataclass

    return {name: omega_conf_to_dataclass(config[name]) for name in DATACLASS_SECTIONS}


def check_model_keys(config: Any) -> int:
    """Every model key the config holds is a field of the dataclass it names (`_target_`)."""
    from hydra.utils import get_class

    target = get_class(config.model._target_)
    fields = {field.name for field in dataclasses.fields(target)}
    unknown = sorted(key for key in config.model.keys() if key != "_target_" and key not in fields)
    if unknown:
        raise ValueError(f"model keys {unknown} are not fields of {target.__name__}")
    return len(fields)


def dataset_class(config: Any) -> Any:
    """The dataset class verl's create_sft_dataset would build (data.custom_cls, else MultiTurnSFTDataset)."""
    from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset
    from verl.utils.import_utils import load_extern_object

    custom = config.data.custom_cls
    if not custom.get("path"):
        return MultiTurnSFTDataset
    loaded = load_extern_object(custom.path, custom.name)
    if not (isinstance(loaded, type) and issubclass(loaded, MultiTurnSFTDataset)):
        raise TypeError(f"data.custom_cls {custom.path}:{custom.name} is not a MultiTurnSFTDataset")
    return loaded


def run_time_problems(config: Any, sections: Dict[str, Any]) -> Tuple[List[str], int]:
    """What verl only meets once the job runs (or never reports): batch split, sequence budget, data files."""
    data, trainer = config.data, config.trainer
    gpus = int(trainer.nnodes) * int(trainer.n_gpus_per_node)
    parallel = int(sections["engine"].ulysses_sequence_parallel_size)
    problems = []
    if gpus % parallel:
        problems.append(f"{gpus} GPUs do not split into sequence-parallel groups of {parallel}")
    ranks = max(1, gpus // parallel)
    if int(data.train_batch_size) % ranks:
        problems.append(f"data.train_batch_size {data.train_batch_size} is not a multiple of the {ranks} data-parallel ranks")
    if data.use_dynamic_bsz and int(data.max_token_len_per_gpu) < int(data.max_length):
        problems.append(f"data.max_token_len_per_gpu {data.max_token_len_per_gpu} < data.max_length {data.max_length}")
    if int(data.max_length) < 32768:
        problems.append(f"data.max_length {data.max_length}: progagent rows average ~19k tokens")
    if str(data.truncation) == "error":
        problems.append("data.truncation error stops the run at the first row over max_length")
    if float(sections["optim"].lr) >= VERL_DEFAULT_LR:
        problems.append(f"optim.lr {sections['optim'].lr} (verl's default) is far too high for full-parameter SFT")
    if (str(data.messages_key), str(data.tools_key)) != ("messages", "tools"):
        problems.append("data.messages_key / tools_key are not the export's columns (messages, tools)")
    if not (str(data.train_files).endswith("/train.parquet") and str(data.val_files).endswith("/train.val.parquet")):
        problems.append(f"data files {data.train_files}, {data.val_files} are not what `export sft --out <dir>/train.parquet` writes")
    return problems, ranks


def check_sft_config(config: Any) -> str:
    sections = build_sections(config)
    model_fields = check_model_keys(config)
    cls = dataset_class(config)
    problems, ranks = run_time_problems(config, sections)
    if problems:
        raise ValueError("; ".join(problems))
    data = config.data
    return (
        f"{', '.join(type(value).__name__ for value in sections.values())} built; model keys in HFModelConfig "
        f"({model_fields} fields); dataset {cls.__name__}; batch {data.train_batch_size} over {ranks} ranks, "
        f"max_length {data.max_length}, lr {sections['optim'].lr}, data {data.train_files}"
    )
