"""A stand-in for hydra: `hydra.utils.instantiate` of a `_target_` with keyword arguments (how verl builds an
agent loop from its registry) and an inert `hydra.main`. Test fixture only."""

from . import utils  # noqa: F401


def main(*args, **kwargs):
    def decorator(function):
        return function

    return decorator
