import { intervalsOverlap, providerInterval, roomInterval } from "../rules.js";

/**
 * The appointment book as task preparation and verifiers read it, and the occupancy tests that planting
 * booking errors needs (a room or provider free at a time, ignoring one appointment being moved).
 */

/** An appointment row as the book stores it. */
export interface AppointmentRow {
  id: number;
  patient_id: number;
  provider_id: number;
  room_id: number | null;
  visit_type: string;
  start_time: string;
  status: string;
  reason: string;
  cancel_reason: string | null;
}

/** The columns the occupancy tests read. */
export type Booking = Pick<
  AppointmentRow,
  "id" | "provider_id" | "room_id" | "visit_type" | "start_time" | "status"
>;

/** A provider with credential and specialty code (`PROVIDER_QUERY`). */
export interface ProviderRow {
  id: number;
  credential: string;
  specialty: string;
}

export const PROVIDER_QUERY =
  "SELECT p.id, p.credential, s.code AS specialty FROM providers p JOIN specialties s ON s.id = p.specialty_id";

/** Whether no live booking other than `exceptId` occupies the room while the visit would. */
export function roomFree(
  rows: readonly Booking[],
  roomId: number,
  visitType: string,
  startTime: string,
  exceptId?: number,
): boolean {
  const slot = roomInterval(visitType, startTime);
  return rows.every(
    (row) =>
      row.id === exceptId ||
      row.room_id !== roomId ||
      row.status === "cancelled" ||
      !intervalsOverlap(roomInterval(row.visit_type, row.start_time), slot),
  );
}

/** Whether the provider has no live booking other than `exceptId` overlapping the visit. */
export function providerFree(
  rows: readonly Booking[],
  providerId: number,
  visitType: string,
  startTime: string,
  exceptId?: number,
): boolean {
  const slot = providerInterval(visitType, startTime);
  return rows.every(
    (row) =>
      row.id === exceptId ||
      row.provider_id !== providerId ||
      row.status === "cancelled" ||
      !intervalsOverlap(providerInterval(row.visit_type, row.start_time), slot),
  );
}
