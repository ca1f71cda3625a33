import { PYTHON_WORKSPACE_HELPERS } from "../../../envs/index.js";

/** The first cell of every newsroom oracle and near-miss: paging, retries, mail reading, dates. */
export const NEWSROOM_PY = String.raw`
import json, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}

def call_retrying(tool, attempts=4, **args):
    for attempt in range(attempts):
        try:
            result = tools[tool](**args)
        except ToolError:
            if attempt == attempts - 1:
                raise
            continue
        if isinstance(result, dict) and result.get("status") == "error" and attempt < attempts - 1:
            continue
        return result

def fetch_all_retrying(tool, key, **filters):
    items, page = [], 1
    while True:
        result = call_retrying(tool, page=page, per_page=50, **filters)
        items.extend(result[key])
        if not result["has_more"]:
            return items
        page += 1

def workspace_files(under="."):
    paths, page = [], 1
    while True:
        listing = tools.list_files(path=under, page=page)
        paths += [item["path"] for item in listing["files"]]
        if not listing["has_more"]:
            return paths
        page += 1

def message_text(message_id):
    return call_retrying("get_message", message_id=message_id)["text"]

def thread_messages(thread_id):
    """Every message of a thread, oldest first, with the sender's address and the full client text."""
    messages = tools.get_thread(thread_id=thread_id)["messages"]
    for message in messages:
        message["email"] = re.search(r"<([^>]+)>", message["sender"]).group(1)
        message["text"] = message_text(message["message_id"])
    return messages

def body_of(text):
    return text.split("\n\n", 1)[1]

def own_text(text):
    """What the sender wrote: no quoted lines, attribution lines, forwarded block or signature."""
    lines = []
    for line in body_of(text).split("\n"):
        if line in ("--", "---------- Forwarded message ---------"):
            break
        if line.startswith(">") or re.match(r"^On .* wrote:$", line):
            continue
        lines.append(line)
    return "\n".join(lines).strip()

def attachment_of(text):
    match = re.search(r"\[Attachment: [^\]]+\]\n-{60}\n(.*?)\n-{60}", text, re.S)
    return match.group(1) if match else None

def staff_roles():
    return {person["email"]: person["role"] for person in fetch_all("list_staff", "staff")}

def add_business_days(day, count):
    current = date.fromisoformat(day)
    while count > 0:
        current += timedelta(days=1)
        if current.weekday() < 5:
            count -= 1
    return current.isoformat()

def money(text):
    return float(text.replace("$", "").replace(",", ""))

TODAY = "2025-06-30"
print("ready")
`;
