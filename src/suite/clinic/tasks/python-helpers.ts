import {
  pythonFileLister,
  PYTHON_WORKSPACE_HELPERS,
  variantNearMisses,
  type NearMiss,
} from "../../../envs/index.js";

/**
 * Python shared by the clinic oracles and near-misses: the kit's pager (`fetch_all`) over the paginated list
 * tools and a workspace file lister. Kept as one cell so every program starts the same way.
 */
export const PYTHON_PAGING_CELL = String.raw`
import csv, io, json, re
from datetime import date

${PYTHON_WORKSPACE_HELPERS}
${pythonFileLister()}

def to_minutes(start_time):
    hours, minutes = start_time[11:16].split(":")
    return int(hours) * 60 + int(minutes)

files = workspace_files()
print(len(files), "workspace files")
`;

/** Reads the visit lengths table of the scheduling rules into `rules` and `visit_lengths`. */
export const PYTHON_RULES_CELL = String.raw`
rules = tools.read_file(path="policies/scheduling-rules.md")["content"]
visit_lengths = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\| \x60(\w+)\x60 \| [^|]+\| (\d+) min \|", rules, re.M)}
print(visit_lengths)
`;

/** Near-misses of a task whose oracle is `cells({})`, each flipping one part of the program (`variantNearMisses`). */
export function clinicNearMisses<Variant extends object>(
  cells: (variant: Variant) => string[],
  misses: Record<string, readonly [change: Partial<Variant>, description: string]>,
): NearMiss[] {
  return variantNearMisses(cells, {} as Variant, misses);
}
