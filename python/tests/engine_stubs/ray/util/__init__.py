"""ray.util stand-in (scheduling strategies)."""

from . import scheduling_strategies  # noqa: F401


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return type(name, (), {})
