import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  pythonClientHelpers,
} from "../../../envs/index.js";

/**
 * The first cell of every coop oracle: `call` retries a 503 (a tool error) and an error body returned as an
 * ordinary result, `fetch` pages a listing with it, and readers for the documents, the scale journals and
 * the bin monitoring exports. Flags on the readers are the mistakes near-misses make.
 */
export const COOP_PY = String.raw`import json, math, re
${PYTHON_WORKSPACE_HELPERS}${PYTHON_MARKDOWN_HELPERS}
TODAY = "2025-06-30"

${pythonClientHelpers()}
def grade_factors():
    rows = md_table(read_text("grading/discount-schedule.md"), "Grade factors")
    return {r[0]: {"lb": float(r[1]), "base": float(r[2]), "shrink": float(r[3]), "fm": float(r[5])} for r in rows}

def settled(net_lb, crop, moisture, fm, factors, proportional=False, all_fm=False):
    f = factors[crop]
    over = round(moisture * 10) - round(f["base"] * 10)
    steps = max(0, over / 5 if proportional else math.ceil(over / 5))
    dock = fm if all_fm else max(0, fm - f["fm"])
    return net_lb / f["lb"] * (1 - (steps * f["shrink"] + dock) / 100)

LINE = re.compile(r"^\d\d:\d\d:\d\d L\d (\w+)\s+tkt (\d+)(.*)$")

def pounds(rest, name, kg_as_lb=False):
    m = re.search(name + r" ([\d,]+) (lb|kg)", rest)
    value = float(m.group(1).replace(",", ""))
    return value * 2.20462 if m.group(2) == "kg" and not kg_as_lb else value

def scale_tickets(kg_as_lb=False, first_probe=False, skip_reissues=False):
    """Every ticket the journals printed, keyed by id, and the set of voided ids."""
    tickets, voided = {}, set()
    for path in workspace_files("logs"):
        text = read_text(path)
        header = text.split("\n", 1)[0]
        site = re.search(r"site (ELV-\d\d)", header).group(1)
        day = re.search(r"date (\d{4}-\d\d-\d\d)", header).group(1)
        for line in text.splitlines()[1:]:
            m = LINE.match(line)
            if not m:
                continue
            event, tid, rest = m.group(1), "T-" + m.group(2), m.group(3)
            if event == "VOID":
                voided.add(tid)
            if event == "REISSUE" and skip_reissues:
                continue
            if event in ("IN", "REISSUE"):
                tickets[tid] = {"ticket_id": tid, "elevator_id": site, "ticket_date": day,
                                "member_id": re.search(r"mbr (M-\d+)", rest).group(1),
                                "crop": re.search(r"\b(CORN|SOYBEANS)\b", rest).group(1).lower(),
                                "designation": re.search(r"acct (\w+)", rest).group(1).lower(),
                                "gross_lb": pounds(rest, "gross", kg_as_lb), "probed": False}
            t = tickets.get(tid)
            if t is None:
                continue
            if event in ("OUT", "REISSUE"):
                t["tare_lb"] = pounds(rest, "tare", kg_as_lb)
                t["net_lb"] = pounds(rest, "net", kg_as_lb)
            if event in ("PROBE", "REISSUE") and not (first_probe and t["probed"]):
                t["probed"] = True
                t["moisture"] = float(re.search(r"moist ([\d.]+)%", rest).group(1))
                t["test_weight"] = float(re.search(r"tw ([\d.]+)", rest).group(1))
                t["fm"] = float(re.search(r"fm ([\d.]+)%", rest).group(1))
    return tickets, voided

def bin_days(keep_faults=False, celsius_as_f=False):
    """Average temperature (F) per bin per day over the valid readings of every monitoring export."""
    sums = {}
    for path in workspace_files("monitoring"):
        lines = [l for l in read_text(path).splitlines() if l and not l.startswith("#")]
        celsius = lines[0].strip().endswith("temp_c") and not celsius_as_f
        for line in lines[1:]:
            time, bin_id, cable, sensor, cell = line.split(",")
            if cell == "" or (float(cell) == -999 and not keep_faults):
                continue
            value = float(cell) * 1.8 + 32 if celsius else float(cell)
            entry = sums.setdefault(bin_id, {}).setdefault(time[:10], [0.0, 0])
            entry[0] += value
            entry[1] += 1
    return {b: {d: s / n for d, (s, n) in days.items()} for b, days in sums.items()}

def aeration():
    rows = {r[0]: float(r[1]) for r in md_table(read_text("storage/aeration-policy.md"), "Thresholds")}
    return rows["rise threshold (F)"], int(rows["lookback days"])

def hot_bins(keep_faults=False, celsius_as_f=False, empty_too=False, extra_days=0):
    threshold, lookback = aeration()
    filled = {b["bin_id"] for b in fetch("list_bins", "bins", **({} if empty_too else {"status": "filled"}))}
    hot = []
    for bin_id, days in sorted(bin_days(keep_faults, celsius_as_f).items()):
        last = max(days)
        earlier = sorted(days)[sorted(days).index(last) - lookback - extra_days]
        rise = days[last] - days[earlier]
        if bin_id in filled and rise >= threshold:
            hot.append(bin_id)
    return hot
print("helpers ready")
`;
