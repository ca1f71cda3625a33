import { insertRow } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { reportId, shiftId } from "./ids.js";
import type { TransportWorld } from "./world.js";

/** Writes the world's rows: the system of record as the office's tools show it. */
export function insertWorld({ db }: GenerateContext, world: TransportWorld): void {
  for (const school of world.schools)
    insertRow(db, "schools", {
      school_id: school.id,
      name: school.name,
      level: school.level,
      bell_time: school.bell,
    });
  for (const bus of [...world.buses].sort((a, b) => a.id.localeCompare(b.id)))
    insertRow(db, "buses", {
      bus_id: bus.id,
      rated_capacity: bus.capacity,
      wheelchair_lift: bus.lift ? 1 : 0,
      avl_unit: bus.avlUnit,
      status: bus.status,
    });
  for (const driver of world.drivers)
    insertRow(db, "drivers", {
      driver_id: driver.id,
      name: driver.name,
      email: driver.email,
      cdl_class: driver.cdlClass,
      endorsements: driver.endorsements,
      medical_card_expires: driver.medicalExpires,
      lift_training_expires: driver.liftUntil,
    });
  for (const route of world.routes) {
    insertRow(db, "routes", {
      route_id: route.id,
      school_id: route.school.id,
      bus_id: route.bus.id,
      driver_id: route.driver.id,
    });
    for (const stop of route.stops)
      insertRow(db, "stops", {
        stop_id: stop.id,
        route_id: route.id,
        seq: stop.seq,
        location: stop.location,
        zone: stop.zone,
        pickup_time: stop.pickup,
        status: stop.closed ? "closed" : "open",
      });
  }
  for (const student of world.students)
    insertRow(db, "students", {
      student_id: student.id,
      name: student.name,
      grade: student.grade,
      school_id: student.school.id,
      home_zone: student.zone,
      distance_miles: student.miles,
      transport_needs: student.needs,
      stop_id: student.stop?.id ?? null,
    });
  for (const row of world.ridership)
    insertRow(db, "ridership", { route_id: row.route.id, ride_date: row.date, am_boardings: row.boardings });
  world.shifts.forEach((shift, index) =>
    insertRow(db, "shifts", {
      shift_id: shiftId.format(index + 1),
      driver_id: shift.driver.id,
      work_date: shift.date,
      duty: shift.duty,
      clock_in: shift.start,
      clock_out: shift.end,
    }),
  );
  world.mails
    .filter((mail) => mail.filed)
    .forEach((mail, index) =>
      insertRow(db, "state_reports", {
        report_id: reportId.format(index + 1),
        route_id: mail.route.id,
        driver_id: mail.driver.id,
        incident_date: mail.date,
        category: mail.category,
      }),
    );
  for (const day of world.avl)
    insertRow(db, "avl_exports", { bus_id: day.bus.id, log_date: day.date, text: day.lines.join("\n") });
}
