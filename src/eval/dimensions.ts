import { trajectorySchema } from "../harness/trajectory.js";
import type { Trajectory } from "../harness/trajectory.js";

export type Harness = Trajectory["harness"];
export type Scale = Trajectory["scale"];

/** Harnesses in report order (as the trajectory format lists them: DTC, PTC, Hybrid). */
export const HARNESSES: readonly Harness[] = trajectorySchema.shape.harness.options;
/** Scales in report order, smallest environment first. */
export const SCALES: readonly Scale[] = trajectorySchema.shape.scale.options;

const HARNESS_LABELS: Record<Harness, string> = { dtc: "DTC", ptc: "PTC", hybrid: "Hybrid" };

/** The name a reader knows a harness by ("DTC", "PTC", "Hybrid"). */
export function harnessLabel(harness: Harness): string {
  return HARNESS_LABELS[harness];
}

/** Orders by harness, then scale, as every report table does. */
export function compareHarnessThenScale(
  left: { harness: Harness; scale: Scale },
  right: { harness: Harness; scale: Scale },
): number {
  return (
    HARNESSES.indexOf(left.harness) - HARNESSES.indexOf(right.harness) ||
    SCALES.indexOf(left.scale) - SCALES.indexOf(right.scale)
  );
}
