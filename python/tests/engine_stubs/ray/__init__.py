"""A stand-in for Ray's API on one machine: "nodes" are named in PROGAGENT_FAKE_RAY_NODES (default one node),
actors run in this process, a method call's result is computed when `.remote()` is called. Enough for verl's
module-level uses and for progagent_rl.launcher's tests. Test fixture only."""

from __future__ import annotations

import os
import threading
from typing import Any, Dict, List, Optional

from . import util  # noqa: F401
from .util.scheduling_strategies import NodeAffinitySchedulingStrategy

_STATE: Dict[str, Any] = {"initialized": False, "init_kwargs": {}, "killed": [], "node": threading.local()}


class ObjectRef:
    def __init__(self, value: Any = None, error: Optional[BaseException] = None):
        self.value, self.error = value, error


class _Method:
    def __init__(self, handle: "ActorHandle", name: str):
        self.handle, self.name = handle, name

    def remote(self, *args: Any, **kwargs: Any) -> ObjectRef:
        if self.handle._dead:
            return ObjectRef(error=RuntimeError("the actor died"))
        return _call(self.handle._node, getattr(self.handle._instance, self.name), args, kwargs)


class ActorHandle:
    def __init__(self, instance: Any, node: str):
        self._instance, self._node, self._dead = instance, node, False

    def __getattr__(self, name: str) -> _Method:
        if name.startswith("_"):
            raise AttributeError(name)
        return _Method(self, name)


def _call(node: str, function: Any, args: Any, kwargs: Any) -> ObjectRef:
    previous = getattr(_STATE["node"], "id", None)
    _STATE["node"].id = node
    try:
        return ObjectRef(function(*args, **kwargs))
    except Exception as error:  # noqa: BLE001 - delivered by get()
        return ObjectRef(error=error)
    finally:
        _STATE["node"].id = previous


class _Remote:
    def __init__(self, target: Any, options: Optional[Dict[str, Any]] = None):
        self.target, self._options = target, dict(options or {})

    def options(self, **options: Any) -> "_Remote":
        return _Remote(self.target, {**self._options, **options})

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        strategy = self._options.get("scheduling_strategy")
        node = strategy.node_id if isinstance(strategy, NodeAffinitySchedulingStrategy) else _node_ids()[0]
        if node not in _node_ids():
            raise ValueError(f"no alive node {node!r}")
        if isinstance(self.target, type):
            created = _call(node, self.target, args, kwargs)
            if created.error is not None:
                raise created.error
            return ActorHandle(created.value, node)
        return _call(node, self.target, args, kwargs)


def remote(*args: Any, **kwargs: Any) -> Any:
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _Remote(args[0])
    return lambda target: _Remote(target, kwargs)


def get(refs: Any, timeout: Optional[float] = None) -> Any:
    if isinstance(refs, list):
        return [get(ref) for ref in refs]
    if refs.error is not None:
        raise refs.error
    return refs.value


def kill(actor: ActorHandle, no_restart: bool = True) -> None:
    actor._dead = True
    _STATE["killed"].append(actor)
    ended = getattr(actor._instance, "__ray_terminate__", None)
    if callable(ended):
        ended()


def _node_ids() -> List[str]:
    return [name for name in os.environ.get("PROGAGENT_FAKE_RAY_NODES", "node-0").split(",") if name]


def nodes() -> List[Dict[str, Any]]:
    return [
        {"NodeID": node, "Alive": True, "NodeManagerAddress": "127.0.0.1", "Resources": {"CPU": 2.0}}
        for node in _node_ids()
    ]


def init(address: Optional[str] = None, **kwargs: Any) -> None:
    _STATE["initialized"], _STATE["init_kwargs"] = True, {"address": address, **kwargs}


def is_initialized() -> bool:
    return bool(_STATE["initialized"])


def shutdown() -> None:
    _STATE["initialized"] = False


class _RuntimeContext:
    gcs_address = "127.0.0.1:6379"

    def get_node_id(self) -> str:
        return getattr(_STATE["node"], "id", None) or _node_ids()[0]


def get_runtime_context() -> _RuntimeContext:
    return _RuntimeContext()


def __getattr__(name: str) -> Any:
    # Anything else verl names at import time (type hints, decorators it never runs here).
    if name.startswith("__"):
        raise AttributeError(name)
    return type(name, (), {})
