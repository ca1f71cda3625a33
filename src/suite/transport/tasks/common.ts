/** What every transport task shares: the domain, the oracle's helper cell and answer checks. */
import { defineTask } from "../../../envs/index.js";
import type { TaskDefinition } from "../../../envs/index.js";
import { transportDomain } from "../domain.js";
import { WEEK } from "../world.js";
import { TRANSPORT_PY } from "./python.js";

interface TransportTask<Variant> extends Pick<
  TaskDefinition,
  "summary" | "instruction" | "tools" | "verify"
> {
  slug: string;
  /** The task's cell after the helper cell, for the oracle (`{}`) and for each near-miss's variant. */
  cell: (variant: Variant) => string | string[];
  nearMisses: Array<[id: string, description: string, variant: Variant]>;
}

/** A transport task whose oracle and near-misses are one cell builder run on different variants. */
export function defineTransportTask<Variant extends object>(task: TransportTask<Variant>): TaskDefinition {
  const { slug, cell, nearMisses, ...rest } = task;
  return defineTask({
    id: `transport.${slug}`,
    domain: transportDomain,
    ...rest,
    oracle: [TRANSPORT_PY, ...([] as string[]).concat(cell({} as Variant))],
    nearMisses: nearMisses.map(([id, description, variant]) => ({
      id,
      description,
      cells: [TRANSPORT_PY, ...([] as string[]).concat(cell(variant))],
    })),
  });
}

export function nonEmpty<T extends { length?: number; size?: number }>(value: T, what: string): T {
  if ((value.length ?? value.size) === 0) throw new Error(`generation produced no ${what}`);
  return value;
}

/**
 * Cells that read every route bus's AVL export of the week into `exports[(route_id, day)]`, one cell per day
 * (a week of exports at v3 is hundreds of calls). `trustPartial` reads pages without checking for a partial
 * body, as a careless program does.
 */
export function avlExportCells(trustPartial = false): string[] {
  const get = trustPartial ? ", lambda name, **kw: tools[name](**kw)" : "";
  return [
    `routes = fetch("list_routes", "routes")\nexports = {}\nprint(len(routes), "routes")`,
    ...WEEK.map(
      (day) =>
        `for route in routes:\n    exports[(route["route_id"], "${day}")] = avl_lines(route["bus_id"], "${day}"${get})\nprint(len(exports), "exports")`,
    ),
  ];
}
