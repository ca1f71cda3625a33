"""Stand-in package for modelscope (see sitecustomize.py): names not defined here are placeholders."""

import sitecustomize

_PLACEHOLDERS = sitecustomize._PlaceholderModule(__name__)


def __getattr__(name):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return getattr(_PLACEHOLDERS, name)
