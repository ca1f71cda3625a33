import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  REFERENCE_DATE,
  pythonClientHelpers,
} from "../../../envs/index.js";
import { PATHS } from "../rules.js";

/**
 * The first cell of every construction oracle and near-miss: the kit's retrying `call` and paging `fetch`,
 * working days, the documents' rules and the e-mail thread reader. A near-miss sets names in `NEAR` in a
 * later cell to make one realistic mistake (`no-retry` replaces `call` with one that does not retry).
 */
export const CONSTRUCTION_PY = String.raw`import json, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_MARKDOWN_HELPERS}
NEAR = set()
TODAY = "${REFERENCE_DATE}"

${pythonClientHelpers()}
def money(text):
    return float(text.replace("$", "").replace(",", ""))

CONDITIONS = read_text("${PATHS.conditions}")
HOLIDAYS = {row[0] for row in md_table(CONDITIONS, "Working days and holidays")}

def add_working_days(day, n):
    d = date.fromisoformat(day)
    while n > 0:
        d += timedelta(days=1)
        if "calendar-days" in NEAR or (d.weekday() < 5 and ("no-holidays" in NEAR or d.isoformat() not in HOLIDAYS)):
            n -= 1
    return d.isoformat()

def authority():
    limits = {role: (None if limit == "no limit" else money(limit)) for role, limit in md_table(CONDITIONS, "Change-order approval authority")}
    people = md_table(read_text("${PATHS.directory}"), "Project directory")
    return {email: limits[role] for name, email, role, project in people if role in limits}

SEPARATOR = "=" * 72 + "\n"
DECISION = re.compile(r"^(approved|rejected|revised approval)\b.*$", re.I | re.M)

def own_text(body):
    lines = []
    for line in body.split("\n"):
        if line in ("--", "---------- Forwarded message ---------"):
            break
        if not (line.startswith(">") or re.match(r"^On .* wrote:$", line)):
            lines.append(line)
    return "\n".join(lines).strip()

def messages_of(text):
    """Each message of a thread's raw text: sender address, body without the attachment, attachment text."""
    found = []
    for part in text.split(SEPARATOR):
        if not part.strip():
            continue
        headers, rest = part.split("\n\n", 1)
        attachment = re.search(r"\[Attachment: [^\]]+\]\n-{60}\n(.*?)\n-{60}", rest, re.S)
        found.append({
            "from": re.search(r"^From: .*<([^>]+)>", headers, re.M).group(1),
            "body": rest.split("\n\n[Attachment: ")[0],
            "attachment": attachment.group(1) if attachment else "",
        })
    return found

def outcome(thread_id, limits):
    """(status, amount, decided_by) of the latest decision in a thread made within its author's authority."""
    text = call("get_email_thread", thread_id=thread_id)["text"]
    requested, first_total, decisions = None, None, []
    messages = messages_of(text)
    for index, message in enumerate(messages):
        total = re.search(r"^TOTAL REQUESTED:\s*(\$[\d,]+\.\d\d)", message["attachment"], re.M)
        if total:
            requested = money(total.group(1))
            first_total = first_total if first_total is not None else requested
        if "last-message" in NEAR and index < len(messages) - 1:
            continue
        body = message["body"]
        if "with-quotes" in NEAR:
            body = "\n".join(re.sub(r"^[> ]+", "", line) for line in body.split("\n"))
        else:
            body = own_text(body)
        for m in DECISION.finditer(body):
            rejected = m.group(1).lower() == "rejected"
            stated = re.search(r"\$[\d,]+\.\d\d", m.group(0))
            basis = first_total if "first-request" in NEAR else requested
            amount = None if rejected else (money(stated.group(0)) if stated else basis)
            limit = limits.get(message["from"], "none")
            if "no-authority" not in NEAR and (limit == "none" or (limit is not None and amount is not None and amount > limit)):
                continue
            decisions.append(("rejected" if rejected else "approved", amount, message["from"]))
    if not decisions:
        return ("pending", None, None)
    return decisions[0] if "first-decision" in NEAR else decisions[-1]
print("ready")
`;

/** A task's cells: the shared first cell, then its own code with `NEAR` set. */
export const taskCells =
  (code: string) =>
  (near: string[]): string[] => [
    CONSTRUCTION_PY,
    `NEAR = set(${JSON.stringify(near)})\n${near.includes("no-retry") ? NO_RETRY : ""}${code}`,
  ];

const NO_RETRY = `def call(name, **kwargs):
    return tools[name](**kwargs)
`;
