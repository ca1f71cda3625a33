/** Verifier checks shared by the it_support tasks that change tickets (escalate, reassign, resolve). */
import type Database from "better-sqlite3";
import { check, diffTable, type Check, type Row, type TableDiff } from "../../envs/index.js";

/** What a write task did to the tickets and their history, against the tickets it was meant to change. */
export interface TicketWrites {
  /** The difference of `ticket_events`. */
  events: TableDiff;
  /** Events added to tickets the task was not meant to change. */
  strayEvents: Row[];
  /**
   * The problems of the tickets meant to change, in order: `missing(id)` for one that did not change,
   * else what `inspect` finds plus every `kept` column that changed.
   */
  problems(
    missing: (id: number) => string,
    inspect: (id: number, before: Row, after: Row) => string[],
    kept: readonly string[],
  ): string[];
  /** `nothing-else-<verb>`: no other ticket changed, none was added or removed. */
  nothingElse(verb: string): Check;
}

export function ticketWrites(
  initial: Database.Database,
  final: Database.Database,
  expected: Iterable<number>,
): TicketWrites {
  const tickets = diffTable(initial, final, "tickets", "id");
  const events = diffTable(initial, final, "ticket_events", "id");
  const changed = new Map(tickets.changed.map((change) => [Number(change.key), change]));
  const ids = new Set(expected);
  const unexpected = [...changed.keys()].filter((id) => !ids.has(id));
  return {
    events,
    strayEvents: events.added.filter((event) => !ids.has(Number(event.ticket_id))),
    problems: (missing, inspect, kept) =>
      [...ids].flatMap((id) => {
        const change = changed.get(id);
        if (!change) return [missing(id)];
        const { before, after } = change;
        const moved = kept.filter((column) => after[column] !== before[column]);
        return [
          ...inspect(id, before, after),
          ...moved.map(
            (column) =>
              `ticket ${id} changed ${column} (${String(before[column])} -> ${String(after[column])})`,
          ),
        ];
      }),
    nothingElse: (verb) =>
      check(
        `nothing-else-${verb}`,
        unexpected.length === 0 && tickets.added.length === 0 && tickets.removed.length === 0,
        unexpected.length === 0
          ? "no other ticket changed"
          : `tickets changed that should not be: ${unexpected.join(", ")}`,
      ),
  };
}

/** A check that passes without problems; its message names the first eight or `success`. */
export function checkTicketProblems(id: string, problems: readonly string[], success: string): Check {
  return check(id, problems.length === 0, problems.length === 0 ? success : problems.slice(0, 8).join("; "));
}

/**
 * `answer`: the ticket ids the reply lists (`null` when it has none) are exactly `expected` (ascending), in
 * any order; the message names them under `label`.
 */
export function checkAnswerTicketIds(
  label: string,
  ids: number[] | null,
  expected: readonly number[],
  answer: string,
): Check {
  const matches =
    ids !== null &&
    ids.length === expected.length &&
    [...ids].sort((a, b) => a - b).every((id, index) => id === expected[index]);
  return check(
    "answer",
    matches,
    `expected ${label} [${expected.join(", ")}], got ${ids === null ? answer.slice(0, 200) : `[${ids.join(", ")}]`}`,
  );
}

/** `id`: the reply names exactly the expected items (`given` is null when it names none), in any order. */
export function checkNamedItems<T>(
  id: string,
  given: readonly T[] | null,
  expected: readonly T[],
  noun: string,
): Check {
  const named = new Set(given ?? []);
  const missing = expected.filter((item) => !named.has(item));
  const extra = [...named].filter((item) => !expected.includes(item));
  return check(
    id,
    given !== null && missing.length === 0 && extra.length === 0,
    `expected ${expected.length} ${noun} [${expected.join(", ")}]; missing [${missing.join(", ")}], unexpected [${extra.join(", ")}]`,
  );
}
