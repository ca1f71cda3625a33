/** What every transport task shares: the domain, the oracle's helper cell and answer checks. */
import { variantTaskDefiner } from "../../../envs/index.js";
import { transportDomain } from "../domain.js";
import { WEEK } from "../world.js";
import { TRANSPORT_PY } from "./python.js";

/** A transport task: the oracle and near-misses are its cell builder run on variants, after TRANSPORT_PY. */
export const defineTransportTask = variantTaskDefiner(transportDomain, TRANSPORT_PY);

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
