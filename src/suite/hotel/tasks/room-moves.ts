import { defineHotelTask } from "./python.js";
import { checkAnswerCount, checkStateDiff } from "../../../envs/index.js";
import { TODAY_TEXT, roomMoves } from "./expectations.js";

function cells({
  ok = 'room["Housekeeping"] == "Inspected"',
  same = 'room["Type"] == row["Type"]',
  board = "rows_of",
}): string[] {
  return [
    String.raw`
def first_page(url, name):
    return table(open_page(url), name)

moved = 0
for code in property_codes():
    rooms = ${board}(f"/properties/{code}/housekeeping", "Rooms")
    broken = sorted((row for row in rooms if row["Housekeeping"] == "Out of order" and row["Front office"].startswith("Arrival ")),
                    key=lambda row: row["Front office"].split()[1])
    used = set()
    for row in broken:
        rid = row["Front office"].split()[1]
        free = [room for room in rooms if room["Front office"] == "Vacant" and ${ok} and ${same} and room["Room"] not in used]
        if not free:
            continue
        target = min(free, key=lambda room: int(room["Room"]))["Room"]
        used.add(target)
        post(f"/reservations/{rid}/move", room=target)
        moved += 1
print(f"Moved {moved} reservations")
`,
  ];
}

export const roomMovesTask = defineHotelTask({
  id: "hotel.room-moves",
  summary:
    "Move today's arrivals out of out-of-order rooms to the lowest Inspected vacant room of the same type.",
  instruction: `${TODAY_TEXT} Maintenance has taken some rooms out of order and a few of today's arrivals are still assigned to them. Please move those guests the way the room-assignment policy says, at every property. Reply with how many reservations you moved, e.g. \`Moved 4 reservations\`.`,
  tools: ["pms_navigate", "pms_submit_form"],
  verify: ({ initial, final, answer }) => {
    const expected = roomMoves(initial);
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "reservations",
          key: "reservation_id",
          changed: new Map([...expected].map(([id, room]) => [id, { room_no: room }])),
        },
      ]),
      checkAnswerCount(answer, expected.size),
    ];
  },
  cells,
  nearMisses: {
    "clean-is-enough": [
      { ok: 'room["Housekeeping"] in ("Inspected", "Clean")' },
      "Takes Clean rooms that housekeeping has not inspected yet.",
    ],
    "any-room-type": [{ same: "True" }, "Moves guests to the lowest inspected room of any type."],
    "first-board-page": [{ board: "first_page" }, "Reads only the first page of the housekeeping board."],
  },
});
