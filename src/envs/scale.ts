import { parseChoiceList } from "../core/index.js";
import { z } from "zod";

import { SCALES, type Scale } from "./names.js";

export { SCALES, type Scale };
export const scaleSchema = z.enum(SCALES);

/** Database rows x1/x2/x4/x8 and workspace files x1/x2/x3/x4, as in the paper. */
export const SCALE_FACTORS: Record<Scale, { rows: number; files: number }> = {
  v0: { rows: 1, files: 1 },
  v1: { rows: 2, files: 2 },
  v2: { rows: 4, files: 3 },
  v3: { rows: 8, files: 4 },
};

/** The paper's measured per-scale suite means, for comparison in `tasks stats`. */
export const PAPER_SCALE_MEANS: Record<Scale, { dbKb: number; files: number }> = {
  v0: { dbKb: 99, files: 12.7 },
  v1: { dbKb: 173, files: 21.9 },
  v2: { dbKb: 335, files: 31.1 },
  v3: { dbKb: 711, files: 40.3 },
};

export function parseScaleList(text: string): Scale[] {
  return parseChoiceList(text, SCALES, "scale");
}
