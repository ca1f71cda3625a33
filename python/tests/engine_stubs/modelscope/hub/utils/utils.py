"""Stand-in for modelscope.hub.utils.utils: ms-swift builds cache paths from get_cache_dir() at import time."""

import os
import tempfile

import sitecustomize

_PLACEHOLDERS = sitecustomize._PlaceholderModule(__name__)


def get_cache_dir(*_args, **_kwargs):
    return os.environ.get("MODELSCOPE_CACHE") or os.path.join(tempfile.gettempdir(), "progagent-modelscope-cache")


def __getattr__(name):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return getattr(_PLACEHOLDERS, name)
