"""A stand-in for tensordict's TensorDict: a dict of tensors sharing a leading batch dimension (what verl's
DataProto construction and its agent-loop post-processing use). Test fixture only."""

from __future__ import annotations

from typing import Any, Dict, Iterable, Optional

import torch

__version__ = "0.10.0"


class _Setting:
    def __init__(self, *args: Any) -> None:
        pass

    def set(self) -> None:
        pass


set_lazy_legacy = _Setting
set_list_to_stack = _Setting


class TensorDict(dict):
    def __init__(self, source: Optional[Dict[str, Any]] = None, batch_size: Any = None, device: Any = None, **_: Any):
        super().__init__()
        sizes = batch_size if isinstance(batch_size, (tuple, list, torch.Size)) else [batch_size]
        self.batch_size = torch.Size([int(size) for size in sizes if size is not None])
        self.device = device
        for key, value in (source or {}).items():
            self[key] = value

    def __setitem__(self, key: str, value: Any) -> None:
        if not isinstance(key, str):
            raise TypeError(f"TensorDict keys are strings, got {key!r}")
        if self.batch_size and tuple(value.shape[: len(self.batch_size)]) != tuple(self.batch_size):
            raise RuntimeError(f"{key}: shape {tuple(value.shape)} does not start with batch size {tuple(self.batch_size)}")
        super().__setitem__(key, value)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(key)
        items = {name: tensor[key] for name, tensor in self.items()}
        first = next(iter(items.values()), None)
        return TensorDict(items, batch_size=[] if first is None else first.shape[:1], device=self.device)

    def select(self, *keys: str) -> "TensorDict":
        return TensorDict({key: self[key] for key in keys}, batch_size=self.batch_size, device=self.device)

    def to(self, device: Any) -> "TensorDict":
        return TensorDict({key: value.to(device) for key, value in self.items()}, self.batch_size, device)

    def contiguous(self) -> "TensorDict":
        return self

    def consolidate(self) -> "TensorDict":
        return self

    def chunk(self, chunks: int, dim: int = 0) -> Iterable["TensorDict"]:
        pieces = {key: value.chunk(chunks, dim) for key, value in self.items()}
        count = len(next(iter(pieces.values()), ()))
        return [TensorDict({key: parts[index] for key, parts in pieces.items()}, batch_size=next(iter(pieces.values()))[index].shape[:1]) for index in range(count)]

    def rename_key_(self, old: Any, new: Any) -> None:
        for before, after in zip(old, new):
            dict.__setitem__(self, after, dict.pop(self, before))


def cat(items: Iterable[TensorDict], dim: int = 0) -> TensorDict:
    items = list(items)
    merged = {key: torch.cat([item[key] for item in items], dim) for key in items[0].keys()}
    return TensorDict(merged, batch_size=[sum(item.batch_size[0] for item in items)])


TensorDict.cat = staticmethod(cat)  # type: ignore[attr-defined]
