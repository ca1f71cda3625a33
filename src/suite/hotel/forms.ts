/** The PMS's two forms: posting a charge on a folio and moving a reservation to another room. */
import type Database from "better-sqlite3";
import { getRow, insertRow, roundCents } from "../../envs/index.js";
import { ToolFailure } from "../../runtime/index.js";
import { euro, folioPage, frontOfficeStatus, reservationPage } from "./pages.js";
import type { Address, PmsPage } from "./pages.js";
import { FOLIO_CODES, POSTABLE_CODES, reservationId } from "./rules.js";

/** The form's page again with an alert naming what was refused; nothing was saved. */
function refused(page: PmsPage, message: string): PmsPage {
  const alert = `- alert: ${JSON.stringify(`Not saved: ${message}`)}`;
  return { ...page, snapshot: page.snapshot.replace(/^(- main:)$/m, `$1\n  ${alert}`) };
}

function postCharge(db: Database.Database, id: string, fields: Map<string, string>, today: string): PmsPage {
  const page = (message?: string) => folioPage(db, `/reservations/${id}/folio`, id, message);
  const code = (fields.get("code") ?? "").trim().toUpperCase();
  if (!POSTABLE_CODES.includes(code))
    return refused(page(), `code must be one of ${POSTABLE_CODES.join(", ")}`);
  const raw = (fields.get("amount") ?? "").replace(/[€,\s]/g, "");
  const amount = Number(raw);
  if (!/^\d+(\.\d{1,2})?$/.test(raw) || amount <= 0)
    return refused(page(), "amount must be a positive euro amount with at most two decimals, e.g. 64.50");
  const description = (fields.get("description") ?? "").trim() || FOLIO_CODES[code]!;
  insertRow(db, "folio_lines", {
    reservation_id: id,
    posted_on: today,
    code,
    description,
    amount: roundCents(amount),
  });
  return page(`Posted ${code} ${euro(amount)} to folio ${id}.`);
}

function moveRoom(db: Database.Database, id: string, fields: Map<string, string>, today: string): PmsPage {
  const row = getRow<{ property: string; status: string; room_no: string | null }>(
    db,
    "SELECT property, status, room_no FROM reservations WHERE reservation_id = ?",
    id,
  )!;
  const page = (message?: string) => reservationPage(db, `/reservations/${id}`, id, message);
  if (row.status !== "booked" && row.status !== "in_house")
    return refused(page(), `reservation ${id} is not arriving or in house`);
  const target = (fields.get("room") ?? "").trim();
  const room = getRow<{ hk_status: string }>(
    db,
    "SELECT hk_status FROM rooms WHERE property = ? AND room_no = ?",
    row.property,
    target,
  );
  if (!room)
    return refused(page(), `${row.property} has no room '${target}'; the housekeeping board lists its rooms`);
  if (room.hk_status === "out_of_order") return refused(page(), `room ${target} is out of order`);
  const office = frontOfficeStatus(db, row.property, today).get(target);
  if (office) return refused(page(), `room ${target} is not vacant (${office})`);
  db.prepare("UPDATE reservations SET room_no = ? WHERE reservation_id = ?").run(target, id);
  return page(`Moved ${id} from room ${row.room_no ?? "unassigned"} to room ${target}.`);
}

/** A form post; refused values come back as the page with an alert (an ordinary result). */
export function submitPmsForm(
  db: Database.Database,
  address: Address,
  values: Record<string, string>,
  today: string,
): PmsPage {
  const [section, id = "", sub, tail, ...rest] = address.parts;
  const fields = new Map(Object.entries(values));
  const known = section === "reservations" && reservationId.matches(id) && rest.length === 0;
  const charge = known && sub === "folio" && tail === "charges";
  const move = known && sub === "move" && tail === undefined;
  if (!charge && !move)
    throw new ToolFailure(
      `405 Method Not Allowed: ${address.path} takes no form posts; forms post to /reservations/<id>/folio/charges and /reservations/<id>/move`,
    );
  if (!getRow(db, "SELECT 1 FROM reservations WHERE reservation_id = ?", id))
    throw new ToolFailure(`404 Not Found: no reservation ${id}`);
  return charge ? postCharge(db, id, fields, today) : moveRoom(db, id, fields, today);
}
