"""hydra.utils.instantiate as verl uses it: `_target_` names a callable; nested configs with a `_target_` are
built first (hydra's recursive default); the rest is passed as plain containers (`_convert_="partial"`)."""

import importlib

from omegaconf import DictConfig, ListConfig, OmegaConf


def get_class(path):
    module, _, name = str(path).rpartition(".")
    return getattr(importlib.import_module(module), name)


def _build(value):
    if isinstance(value, dict):
        if "_target_" in value:
            return instantiate(value)
        return {key: _build(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_build(item) for item in value]
    return value


def instantiate(config, *args, _convert_=None, _recursive_=True, **kwargs):
    if isinstance(config, (DictConfig, ListConfig)):
        config = OmegaConf.to_container(config, resolve=True)
    values = dict(config)
    target = get_class(values.pop("_target_"))
    recursive = values.pop("_recursive_", _recursive_)
    values.pop("_convert_", None)
    if recursive:
        values = {key: _build(item) for key, item in values.items()}
    return target(*args, **{**values, **kwargs})
