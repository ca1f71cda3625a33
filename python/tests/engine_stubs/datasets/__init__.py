"""Stand-in for Hugging Face `datasets`: a version for ms-swift's version checks; every other name is a placeholder
(see sitecustomize.py)."""

import sitecustomize

__version__ = "3.6.0"
_PLACEHOLDERS = sitecustomize._PlaceholderModule(__name__)


def __getattr__(name):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return getattr(_PLACEHOLDERS, name)
