import { variantTaskDefiner } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { PYTHON_WORKSPACE_HELPERS, REFERENCE_DATE, pythonPager } from "../../../envs/index.js";

/**
 * The first cell of every newsroom oracle and near-miss. `fetch_all` and `call` retry what the desk's APIs do
 * to careful clients: a 503 raised as a tool error, and a mail gateway timeout returned as an ordinary body
 * with `"status": "error"`. The mail readers split a message as the client shows it into the sender's own
 * text (no quotes, attribution lines, forwarded block or signature) and its text attachment.
 */
export const NEWSROOM_PY = String.raw`import json, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}
TODAY = "${REFERENCE_DATE}"

def call(tool, **args):
    for attempt in range(4):
        try:
            result = tools[tool](**args)
        except ToolError:
            if attempt == 3:
                raise
            continue
        if not (isinstance(result, dict) and result.get("status") == "error") or attempt == 3:
            return result

${pythonPager({ name: "fetch_all", toolParam: "tool" })}

def workspace_files(under):
    return [item["path"] for item in fetch_all("list_files", "files", path=under)]

def thread_messages(thread_id):
    """Every message of a thread, oldest first, with the sender's address and the client's full text."""
    messages = tools.get_thread(thread_id=thread_id)["messages"]
    for message in messages:
        message["email"] = re.search(r"<([^>]+)>", message["sender"]).group(1)
        message["text"] = call("get_message", message_id=message["message_id"])["text"]
    return messages

def body_of(text):
    return text.split("\n\n", 1)[1]

def own_text(text):
    lines = []
    for line in body_of(text).split("\n"):
        if line in ("--", "---------- Forwarded message ---------"):
            break
        if not (line.startswith(">") or re.match(r"^On .* wrote:$", line)):
            lines.append(line)
    return "\n".join(lines).strip()

def attachment_of(text):
    match = re.search(r"\[Attachment: [^\]]+\]\n-{60}\n(.*?)\n-{60}", text, re.S)
    return match.group(1) if match else None

def form_field(form, name):
    return re.search(r"^" + re.escape(name) + r":\s+(.+)$", form, re.M).group(1).strip()

def staff_roles():
    return {person["email"]: person["role"] for person in fetch_all("list_staff", "staff")}

def money(text):
    return float(text.replace("$", "").replace(",", ""))
print("ready")
`;

/** A newsroom task whose oracle and near-misses are its cell builder run on variants, after NEWSROOM_PY. */
export const defineNewsroomTask = variantTaskDefiner(newsroomDomain, NEWSROOM_PY);
