"""progagent's host-side companion for a LOCA-bench checkout (one process per episode, or per build).

Runs on the host, never in the sandbox: it imports the checkout's environment classes, generates instances,
owns the environment object of one episode and calls its verifier. Requests arrive on stdin and replies leave
on the original stdout, one JSON object per line ({"id", "op", ...} -> {"id", "ok", "result" | "error"});
everything else the benchmark's code prints goes to stderr, so it can never corrupt a reply.

Operations: inspect (server availability, class instructions), build (generate an instance and keep its
environment object), open (an episode's copy of the hidden state, the environment object re-pointed at it,
the MCP server configuration), verify, reference.
"""

import importlib
import importlib.util
import json
import os
import pathlib
import pickle
import shutil
import sys
import time
import traceback

PROTOCOL = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr

# Servers of LOCA's own harness that progagent replaces with its own tools.
REPLACED_SERVER_TYPES = {"claim_done", "python_execute", "programmatic_tool_calling", "programmatic-tool-calling"}
PICKLE_FILE = "environment.pickle"
MAX_OBSERVATION_CHARS = 20_000


class RequestError(Exception):
    """A failure the caller reads as one line (no traceback)."""


def reply(request_id, ok, payload):
    PROTOCOL.write(json.dumps({"id": request_id, "ok": ok, ("result" if ok else "error"): payload}) + "\n")


def checkout_root(request):
    root = pathlib.Path(request["checkout"]).resolve()
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
        # Generators run some of their steps as `sys.executable <script>`: they import the checkout too.
        paths = [str(root), *[path for path in os.environ.get("PYTHONPATH", "").split(os.pathsep) if path]]
        os.environ["PYTHONPATH"] = os.pathsep.join(paths)
    return root


# ----- server configurations (LOCA's gem/tools/mcp_server/config/<type>.yaml) -----


def load_server_spec(root, server_type):
    path = root / "gem" / "tools" / "mcp_server" / "config" / f"{server_type}.yaml"
    if not path.is_file():
        raise RequestError(f"no server configuration for type '{server_type}' (expected {path})")
    import yaml

    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(spec, dict) or not isinstance(spec.get("execution"), dict):
        raise RequestError(f"{path}: expected a mapping with an 'execution' section")
    return spec


def fill_placeholders(value, names):
    if not isinstance(value, str):
        return value
    for name, replacement in names.items():
        value = value.replace("{" + name + "}", str(replacement))
    return value


def resolve_parameters(spec, params, placeholders):
    """Each declared parameter's value: given, given under an alias, or the default; placeholders filled."""
    values = {}
    declared = spec.get("parameters") or {}
    for name, parameter in declared.items():
        parameter = parameter or {}
        value = params.get(name)
        for alias in parameter.get("aliases") or []:
            if value is None and alias in params:
                value = params[alias]
        if value is None:
            if parameter.get("required") and name not in ("server_script",):
                raise RequestError(f"server '{spec.get('name')}' needs the parameter '{name}'")
            value = parameter.get("default")
        if value is not None:
            values[name] = value
    names = dict(placeholders)
    names.update({key: value for key, value in values.items() if isinstance(value, (str, int, float))})
    return {key: fill_placeholders(value, names) for key, value in values.items()}, declared


def server_command(root, spec, python):
    """The command of a server: kind, what must exist for it to run, and the argv before its own arguments."""
    execution = spec["execution"]
    kind = execution.get("command_type")
    if kind in ("python", "uv"):
        # `uv run python <script>` runs the same script in the project's environment: ours is the one given.
        script = (execution.get("script") or {}).get("primary")
        if not script:
            raise RequestError(f"server '{spec.get('name')}': execution.script.primary is missing")
        return {"kind": "python", "script": str(root / script), "argv": [python, str(root / script)]}
    if kind == "node":
        script = (execution.get("script") or {}).get("primary")
        return {"kind": "node", "script": str(root / script), "argv": ["node", str(root / script)]}
    if kind == "npx":
        package = execution.get("package_name")
        return {"kind": "npx", "package": package, "argv": ["npx", "-y", package]}
    if kind == "uvx":
        package = execution.get("package_name")
        return {"kind": "uvx", "executable": "uvx", "package": package, "argv": ["uvx", package]}
    if kind == "direct":
        executable = execution.get("executable_name")
        return {
            "kind": "direct",
            "executable": executable,
            "argv": [executable, *[str(arg) for arg in execution.get("additional_args") or []]],
        }
    raise RequestError(f"server '{spec.get('name')}': unknown command_type '{kind}'")


def server_entry(root, server_type, params, placeholders, python, extra_env):
    """One {"command", "args", "env", "cwd"} entry of the standard MCP configuration."""
    spec = load_server_spec(root, server_type)
    values, declared = resolve_parameters(spec, params or {}, placeholders)
    command = server_command(root, spec, python)
    args, env = [], {}
    for name, parameter in declared.items():
        parameter = parameter or {}
        if name not in values:
            continue
        value = values[name]
        if isinstance(value, list):
            value = ",".join(str(item) for item in value)
        if name == "env_vars" and isinstance(value, dict):
            env.update({str(key): str(item) for key, item in value.items()})
            continue
        if parameter.get("cli_arg") == "":
            args.append(str(value))
        elif parameter.get("cli_arg"):
            args.extend([parameter["cli_arg"], str(value)])
        if parameter.get("env_var"):
            env[parameter["env_var"]] = str(value)
    if command["kind"] == "python":
        env.update(extra_env)
    workspace = spec.get("workspace") or {}
    entry = {"command": command["argv"][0], "args": command["argv"][1:] + args, "env": env}
    if workspace.get("set_cwd") and workspace.get("cwd_param") in values:
        cwd = pathlib.Path(str(values[workspace["cwd_param"]])).resolve()
        if workspace.get("mkdir_if_needed", True):
            cwd.mkdir(parents=True, exist_ok=True)
        entry["cwd"] = str(cwd)
    if command["kind"] == "npx":
        entry["npmPackage"] = command["package"]
    return entry


def mcp_configuration(root, servers, placeholders, python, extra_env):
    config = {}
    for name, server in servers.items():
        if not server.get("enabled", True) or server.get("type") in REPLACED_SERVER_TYPES:
            continue
        params = {key: fill_placeholders(value, placeholders) for key, value in (server.get("params") or {}).items()}
        config[name] = server_entry(root, server["type"], params, placeholders, python, extra_env)
    return {"mcpServers": config}


def availability(root, server_type):
    """Whether a server type can start here, and if not, why (one line)."""
    spec = load_server_spec(root, server_type)
    command = server_command(root, spec, sys.executable)
    if command["kind"] == "python":
        if not pathlib.Path(command["script"]).is_file():
            return False, f"its script {command['script']} is missing"
        if importlib.util.find_spec("mcp") is None:
            return False, f"the MCP Python SDK ('mcp') is not installed for {sys.executable}"
        return True, None
    if command["kind"] == "npx":
        return True, None
    executable = command.get("executable") or command["argv"][0]
    if shutil.which(executable) is None:
        package = command.get("package")
        return False, f"'{executable}' is not on PATH" + (f" (it runs the PyPI package {package})" if package else "")
    return True, None


def op_inspect(request):
    root = checkout_root(request)
    servers = {}
    for server_type in request["serverTypes"]:
        try:
            ok, reason = availability(root, server_type)
        except RequestError as error:
            ok, reason = False, str(error)
        servers[server_type] = {"available": ok, "reason": reason, "replaced": server_type in REPLACED_SERVER_TYPES}
    classes = {}
    for class_path in request["envClasses"]:
        try:
            environment_class = import_class(class_path)
            instruction = environment_class._get_instructions(object.__new__(environment_class))
            classes[class_path] = {"instruction": instruction if isinstance(instruction, str) else None}
        except Exception as error:  # noqa: BLE001 - a class that cannot be imported is reported, not fatal
            classes[class_path] = {"instruction": None, "error": f"{type(error).__name__}: {error}"}
    return {"servers": servers, "classes": classes, "python": sys.executable}


# ----- environment objects -----


def import_class(class_path):
    module_name, _, class_name = class_path.rpartition(".")
    return getattr(importlib.import_module(module_name), class_name)


def rebase(value, old, new, seen):
    """Re-points every path under `old` held by the environment object (and its own objects) at `new`."""
    if isinstance(value, str):
        if value == old or value.startswith(old + os.sep):
            return new + value[len(old):]
        return value
    if isinstance(value, pathlib.PurePath):
        text = str(value)
        moved = rebase(text, old, new, seen)
        return value if moved is text else type(value)(moved)
    if id(value) in seen:
        return value
    if isinstance(value, dict):
        seen.add(id(value))
        for key in list(value):
            value[key] = rebase(value[key], old, new, seen)
        return value
    if isinstance(value, list):
        seen.add(id(value))
        value[:] = [rebase(item, old, new, seen) for item in value]
        return value
    if isinstance(value, tuple):
        return type(value)(rebase(item, old, new, seen) for item in value) if not hasattr(value, "_fields") else value
    module = getattr(type(value), "__module__", "") or ""
    # Only the benchmark's own objects are walked (not pandas frames, loggers or modules).
    if hasattr(value, "__dict__") and (module.startswith("gem.") or module.startswith("mcp_convert.") or module.startswith("mcps.")):
        seen.add(id(value))
        for key, item in list(vars(value).items()):
            vars(value)[key] = rebase(item, old, new, seen)
    return value


def env_params(entry, task_dir):
    placeholders = {"task_workspace": task_dir, "agent_workspace": os.path.join(task_dir, "agent_workspace")}
    params = {key: fill_placeholders(value, placeholders) for key, value in (entry.get("env_params") or {}).items()}
    params["task_dir"] = task_dir
    return params


def logged_failure(task_dir):
    """The classes catch their generators' exceptions and log them: an ERROR line in their logs is a failure."""
    for log in sorted((task_dir / "logs").glob("*.log")) if (task_dir / "logs").is_dir() else []:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
        for index, line in enumerate(lines):
            if " - ERROR - " in line:
                detail = [text.strip() for text in lines[index + 1 : index + 40] if text.strip() and " - INFO - " not in text]
                cause = next((text for text in reversed(detail) if "Error" in text or "error" in text), "")
                return line.split(" - ERROR - ", 1)[1].strip() + (f" ({cause})" if cause else "")
    return None


def agent_workspace_of(task_dir):
    return pathlib.Path(task_dir) / "agent_workspace"


def op_build(request):
    """Generates one instance into `taskDir` and keeps the environment object beside it."""
    checkout_root(request)
    entry = request["entry"]
    task_dir = str(pathlib.Path(request["taskDir"]).resolve())
    started = time.monotonic()
    path_before = list(sys.path)
    environment_class = import_class(entry["env_class"])
    environment = environment_class(**env_params(entry, task_dir))
    if hasattr(environment, "_get_instructions"):
        instruction = environment._get_instructions()
    else:
        instruction = environment.reset()[0]
    failure = logged_failure(pathlib.Path(task_dir))
    if failure:
        raise RequestError(f"{entry['env_class']} failed to generate: {failure}")
    # Some classes start the agent with an empty workspace (LOCA's runner makes the folder for them).
    agent_workspace_of(task_dir).mkdir(parents=True, exist_ok=True)
    generated_seconds = time.monotonic() - started
    # A ground-truth table the agent's workspace holds under the same name is an expected workspace file: the
    # ground truth copied into the workspace is then a reference final state.
    truth_root, truth_files = ground_truth_files(pathlib.Path(task_dir))
    reference_tables = [
        str(path.relative_to(truth_root))
        for path in truth_files
        if path.suffix.lower() in (".csv", ".xlsx") and (agent_workspace_of(task_dir) / path.relative_to(truth_root)).is_file()
    ]
    state_file = pathlib.Path(request["stateDir"]) / PICKLE_FILE
    with open(state_file, "wb") as handle:
        # Generators put their folders on sys.path and their verifiers import from there: an episode replays it.
        added = [path for path in sys.path if path not in path_before]
        pickle.dump({"environment": environment, "taskDir": task_dir, "sysPath": added}, handle)
    return {"instruction": instruction, "generatedSeconds": generated_seconds, "referenceTables": reference_tables}


class Episode:
    def __init__(self):
        self.environment = None
        self.task_dir = None
        self.workspace = None


EPISODE = Episode()


def op_open(request):
    """An episode's private copy of the hidden state, the environment object re-pointed at it, the servers."""
    root = checkout_root(request)
    instance_task_dir = pathlib.Path(request["instanceTaskDir"])
    task_dir = pathlib.Path(request["hiddenDir"]) / "task"
    shutil.copytree(instance_task_dir, task_dir, symlinks=True, ignore=shutil.ignore_patterns("agent_workspace"))
    with open(pathlib.Path(request["stateDir"]) / PICKLE_FILE, "rb") as handle:
        kept = pickle.load(handle)
    for path in reversed(kept.get("sysPath") or []):
        if path not in sys.path:
            sys.path.insert(0, path)
    EPISODE.environment = rebase(kept["environment"], kept["taskDir"], str(task_dir), set())
    EPISODE.task_dir = task_dir
    EPISODE.workspace = pathlib.Path(request["workspaceDir"])
    placeholders = {"task_workspace": str(task_dir), "agent_workspace": str(EPISODE.workspace)}
    extra_env = {key: value for key, value in (request.get("serverEnv") or {}).items()}
    config = mcp_configuration(root, request["entry"].get("mcp_servers") or {}, placeholders, request["python"], extra_env)
    hidden = [str(task_dir / name) for name in sorted(os.listdir(task_dir))]
    return {"config": config, "hiddenPaths": hidden}


def copy_without_links(source, destination):
    """Copies regular files and folders only: a link the agent planted must not lead the verifier elsewhere."""
    destination.mkdir(parents=True, exist_ok=True)
    with os.scandir(source) as entries:
        for entry in entries:
            target = destination / entry.name
            if entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                copy_without_links(pathlib.Path(entry.path), target)
            elif entry.is_file(follow_symlinks=False):
                shutil.copyfile(entry.path, target, follow_symlinks=False)


def require_open():
    if EPISODE.environment is None:
        raise RequestError("no episode is open in this sidecar")


def op_verify(request):
    """The suite's verdict on the final workspace (copied without links to where the verifier looks)."""
    require_open()
    snapshot = EPISODE.task_dir / "agent_workspace"
    if snapshot.exists():
        shutil.rmtree(snapshot)
    copy_without_links(EPISODE.workspace, snapshot)
    observation, reward, _terminated, _truncated, info = EPISODE.environment.step(request.get("answer", ""))
    safe_info = json.loads(json.dumps(info, default=str)) if isinstance(info, dict) else {}
    return {"reward": float(reward), "observation": str(observation)[:MAX_OBSERVATION_CHARS], "info": safe_info}


def ground_truth_files(task_dir):
    root = task_dir / "groundtruth_workspace"
    if not root.is_dir():
        return root, []
    return root, sorted(path for path in root.rglob("*") if path.is_file() and not path.is_symlink())


def drop_last_row(path):
    """One realistic mistake: the last data row of a table missing."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        rows = [index for index, line in enumerate(lines) if line.strip()]
        if len(rows) < 2:
            return False
        del lines[rows[-1]]
        path.write_text("".join(lines), encoding="utf-8")
        return True
    if suffix == ".xlsx":
        import openpyxl

        workbook = openpyxl.load_workbook(path)
        sheet = workbook.worksheets[0]
        if sheet.max_row < 2:
            return False
        sheet.delete_rows(sheet.max_row)
        workbook.save(path)
        return True
    if suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, list) and data:
            data.pop()
        elif isinstance(data, dict) and data:
            data.pop(sorted(data)[-1])
        else:
            return False
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")
        return True
    return False


def op_reference(request):
    """Writes the ground-truth files into the workspace; `perturbed` then drops one row of the first table."""
    require_open()
    root, files = ground_truth_files(EPISODE.task_dir)
    if not files:
        raise RequestError(f"no ground-truth files in {root.name}/")
    written = []
    for path in files:
        target = EPISODE.workspace / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        written.append(str(path.relative_to(root)))
    if request.get("variant") == "perturbed":
        for relative_path in request.get("tables") or written:
            if drop_last_row(EPISODE.workspace / relative_path):
                return {"written": written, "perturbed": relative_path}
        raise RequestError("no ground-truth table (csv, xlsx, json) with a row to drop")
    return {"written": written}


OPERATIONS = {
    "inspect": op_inspect,
    "build": op_build,
    "open": op_open,
    "verify": op_verify,
    "reference": op_reference,
}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            operation = OPERATIONS.get(request.get("op"))
            if operation is None:
                raise RequestError(f"unknown operation {request.get('op')!r}")
            reply(request_id, True, operation(request))
        except RequestError as error:
            reply(request_id, False, {"message": str(error)})
        except Exception as error:  # noqa: BLE001 - the benchmark's failure is reported to the host
            reply(
                request_id,
                False,
                {"message": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc()[-4000:]},
            )


if __name__ == "__main__":
    main()
