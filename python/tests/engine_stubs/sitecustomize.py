"""Stand-ins for the modules verl and ms-swift import that cannot be installed here (no PyPI).

Only for python/tests and the self-check run on this machine: putting this folder first on PYTHONPATH makes
Python import this file at start-up. Hand-written stand-ins (this folder's packages) carry the parts of an
API that the engines' code paths under test really call; every other name of the listed distributions
resolves to an inert placeholder, so that module-level imports of code we never call succeed.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types

# Distributions with no Debian package; a module of these that has no hand-written stand-in here is a
# placeholder module.
STUBBED = tuple(
    name
    for name in os.environ.get(
        "PROGAGENT_ENGINE_STUBS",
        "ray,transformers,datasets,hydra,tensordict,peft,accelerate,codetiming,vllm,sglang,flash_attn,"
        "liger_kernel,wandb,swanlab,mlflow,tensorboard,torchdata,pybind11,math_verify,qwen_vl_utils,"
        "modelscope,trl,deepspeed,transformers_stream_generator,json_repair,zmq,uvicorn,fastapi,aiohttp,"
        "openai,jinja2,tqdm,safetensors,huggingface_hub,einops,nltk,rouge,binpacking,dacite,addict,"
        "simplejson,sortedcontainers,importlib_metadata,attrdict,oss2,tiktoken,torchvision,cloudpickle,"
        "sentencepiece,packaging,psutil,requests,gradio,pynvml,decord,av,librosa,soundfile,"
        "mindspeed,megatron,transfer_queue,opentelemetry,prometheus_client,msgspec,starlette,aiofiles,"
        "cachetools,xxhash,word2number,latex2sympy2_extended,pylatexenc",
    ).split(",")
    if name
)
HERE = os.path.dirname(os.path.abspath(__file__))


class _Placeholder:
    """Any attribute, call, subscript or subclassing works and yields another placeholder."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        # A decorator placeholder returns what it decorates.
        if len(args) == 1 and not kwargs and (callable(args[0]) or isinstance(args[0], type)):
            return args[0]
        return _Placeholder()

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Placeholder()

    def __getitem__(self, key):
        return _Placeholder()

    def __iter__(self):
        return iter(())

    def __bool__(self):
        return False

    def __mro_entries__(self, bases):
        return (_PlaceholderBase,)


class _PlaceholderBase:
    def __init__(self, *args, **kwargs):
        pass

    def __init_subclass__(cls, **kwargs):
        pass


class _PlaceholderModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if name[:1].isupper():
            value = type(name, (_PlaceholderBase,), {"__module__": self.__name__})
        else:
            value = _Placeholder()
        setattr(self, name, value)
        return value


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        module = _PlaceholderModule(spec.name)
        module.__path__ = []  # a package, so that submodules import too
        return module

    def exec_module(self, module):
        module.__spec__.has_location = False


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        top = fullname.split(".", 1)[0]
        # torch 1.13 (Debian's) lacks submodules newer torch has (device_mesh, DTensor, ...): placeholders too.
        if top not in STUBBED and not (top == "torch" and "." in fullname):
            return None
        # A hand-written stand-in or an installed module wins over a placeholder.
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                return spec
        spec = importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)
        return spec


# Parts of Debian's torch 1.13 that do not import on Python 3.11 (dataclass defaults that 3.11 rejects): the
# engines import them at module level for FSDP, which a CPU self-check never runs.
BROKEN_TORCH = ("torch.distributed.fsdp", "torch.distributed._shard", "torch.distributed.checkpoint",
                "torch.distributed.tensor", "torch.distributed._tensor", "torch.distributed.device_mesh",
                "torch.distributed._composable", "torch.distributed.algorithms")


class _Broken(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if any(fullname == name or fullname.startswith(name + ".") for name in BROKEN_TORCH):
            return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)
        return None


if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
    sys.meta_path.insert(0, _Broken())
    sys.meta_path.append(_Finder())

# Debian's python3-torch, python3-numpy, python3-omegaconf... serve this interpreter too (same 3.11 ABI). Those
# packages (and the numpy and antlr4 they were built against) come from Debian; everything else, pydantic 2 and
# typing_extensions among them, from the interpreter's own site-packages.
DEBIAN_SITE = os.environ.get("PROGAGENT_DEBIAN_SITE", "/usr/lib/python3/dist-packages")
FROM_DEBIAN = ("torch", "torchgen", "functorch", "numpy", "omegaconf", "antlr4", "pandas", "PIL", "psutil", "pytz")


class _DebianFirst(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if path is not None or fullname not in FROM_DEBIAN:
            return None
        return importlib.machinery.PathFinder.find_spec(fullname, [DEBIAN_SITE])


if os.path.isdir(DEBIAN_SITE) and not any(isinstance(finder, _DebianFirst) for finder in sys.meta_path):
    sys.meta_path.insert(0, _DebianFirst())
