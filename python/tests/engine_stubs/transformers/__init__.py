"""Stand-in for Hugging Face `transformers`: a version for the engines' version checks; every other name is a
placeholder (see sitecustomize.py). Test fixture only."""

import sitecustomize

__version__ = "4.57.1"
_PLACEHOLDERS = sitecustomize._PlaceholderModule(__name__)


def __getattr__(name):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return getattr(_PLACEHOLDERS, name)
