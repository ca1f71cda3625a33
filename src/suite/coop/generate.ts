import { addDays, dateRange, insertRow, personName, randomDate } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { writeCoopDocuments } from "./documents.js";
import type { Grade, LogSite, LogTicket, ScaleTicket } from "./logs.js";
import { logPath, renderLog } from "./logs.js";
import type { BinTrend } from "./monitoring.js";
import { EXPORT_DAYS, monitoringPath, renderExport } from "./monitoring.js";
import { binId, contractId, memberId } from "./schema.js";
import { FISCAL_YEAR, GRADE_FACTORS, KG_TO_LB, round2, settledBushels } from "./world.js";

type Random = GenerateContext["random"];
interface Member {
  id: string;
  home: LogSite;
  crops: string[];
}

const SITES = [
  ["Harlan North", "Harlan"],
  ["Brandt Junction", "Brandt"],
  ["Osage Creek", "Osage"],
  ["Mill Prairie", "Millford"],
] as const;
const FACTORS = new Map(Object.entries(GRADE_FACTORS));

function grade(random: Random, crop: string): Grade {
  const corn = crop === "corn";
  const wet = random.chance(0.45);
  const base = corn ? 15.0 : 13.5;
  return {
    moisture: Math.round((wet ? base + random.int(1, 45) / 10 : base - random.int(0, 25) / 10) * 10) / 10,
    testWeight: random.int(corn ? 530 : 540, corn ? 585 : 585) / 10,
    fm: random.int(2, corn ? 38 : 24) / 10,
  };
}

/** Whole units that do not land on half a pound once converted (so rounding cannot differ between readers). */
function units(value: number, site: LogSite): number {
  let v = Math.round(site.units === "kg" ? value / KG_TO_LB : value);
  while (site.units === "kg" && Math.abs(((v * KG_TO_LB) % 1) - 0.5) < 0.01) v += 1;
  return v;
}

const toLb = (value: number, site: LogSite): number =>
  site.units === "kg" ? Math.round(value * KG_TO_LB) : value;

function load(random: Random, site: LogSite, crop: string): { gross: number; tare: number; grade: Grade } {
  const tare = units(random.int(25000, 32000), site);
  return { tare, gross: tare + units(random.int(38000, 58000), site), grade: grade(random, crop) };
}

/** A ticket as the accounting system stores it. */
type TicketRow = LogTicket & { net_bu: number; status: string };

function row(t: ScaleTicket, site: LogSite, status = "active", keyingError = 0): TicketRow {
  const gross = toLb(t.gross, site) + keyingError;
  const tare = toLb(t.tare, site);
  return {
    ticket_id: t.id,
    elevator_id: t.elevator,
    member_id: t.member,
    crop: t.crop,
    ticket_date: t.date,
    gross_lb: gross,
    tare_lb: tare,
    net_lb: gross - tare,
    moisture: t.grade.moisture,
    test_weight: t.grade.testWeight,
    fm: t.grade.fm,
    net_bu: round2(settledBushels(gross - tare, t.crop, t.grade.moisture, t.grade.fm, FACTORS)),
    designation: t.designation,
    status,
  };
}

export function generateCoop(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate } = context;
  const sites: LogSite[] = SITES.slice(0, [2, 3, 4, 4][factors.files - 1]).map(([name, town], i) => {
    const site: LogSite = {
      id: `ELV-0${i + 1}`,
      name,
      units: i % 2 ? "kg" : "lb",
      commas: i === 0 || i === 3,
    };
    insertRow(db, "elevators", { elevator_id: site.id, name, town, scale_units: site.units });
    return site;
  });
  const siteOf = new Map(sites.map((s) => [s.id, s]));
  const members: Member[] = [];
  const emails = new Set<string>();
  for (let n = 1; n <= 14 * factors.rows; n += 1) {
    const person = personName(faker, "example.com", emails);
    const member: Member = {
      id: memberId.format(n),
      home: sites[n % sites.length]!,
      crops: n % 4 === 0 ? ["soybeans"] : n % 4 === 1 ? ["corn"] : ["corn", "soybeans"],
    };
    members.push(member);
    insertRow(db, "members", {
      member_id: member.id,
      name: person.fullName,
      farm: `${person.lastName} ${random.pick(["Farms", "Family Farm", "Ag LLC", "Acres"])}`,
      home_elevator: member.home.id,
      patron_status: n % 5 === 3 ? "non-member" : "member",
      joined_on: randomDate(random, "1988-01-01", "2022-12-31"),
    });
  }

  // Ticket numbers run per elevator in the order tickets were weighed.
  const next = new Map(sites.map((s, i) => [s.id, (i + 1) * 100000 + 1001]));
  const number = (site: string): string => {
    const n = next.get(site)!;
    next.set(site, n + 1);
    return `T-${n}`;
  };
  const ticket = (member: Member, crop: string, date: string, designation: string): ScaleTicket => ({
    id: "",
    elevator: member.home.id,
    date,
    member: member.id,
    crop,
    designation,
    ...load(random, member.home, crop),
    at: random.int(6 * 3600, 18 * 3600 + 1800),
    lane: random.int(1, 2),
  });

  // History: last year's and this year's deliveries before the journals (DB only).
  const history: ScaleTicket[] = [];
  for (const member of members)
    for (let n = random.int(22, 30); n > 0; n -= 1) {
      const date = random.chance(0.25)
        ? randomDate(random, "2023-09-25", "2023-11-25")
        : random.chance(0.7)
          ? randomDate(random, "2024-09-28", "2024-11-25")
          : randomDate(random, "2025-01-06", "2025-05-30");
      history.push(ticket(member, random.pick(member.crops), date, random.chance(0.65) ? "spot" : "storage"));
    }
  // The fiscal year's first day and the day before it, for patronage's inclusive window.
  members.forEach((member, i) => {
    const date = i % 4 === 0 ? FISCAL_YEAR.start : addDays(FISCAL_YEAR.start, -1);
    if (i % 4 < 2) history.push(ticket(member, member.crops[0]!, date, "spot"));
  });
  history.sort((a, b) => a.date.localeCompare(b.date) || a.at - b.at);
  for (const t of history) t.id = number(t.elevator);

  // This year's harvest tickets go to contracts in chunks: filled, within tolerance, short; some contracts got nothing.
  const applications: Array<{ ticket_id: string; contract_id: string; bushels: number; applied_on: string }> =
    [];
  let contracts = 0;
  const addContract = (member: Member, crop: string, fields: Record<string, unknown>): string => {
    contracts += 1;
    const id = contractId.format(contracts);
    insertRow(db, "contracts", {
      contract_id: id,
      member_id: member.id,
      elevator_id: member.home.id,
      crop,
      price: crop === "corn" ? random.int(395, 465) / 100 : random.int(980, 1120) / 100,
      ...fields,
    });
    return id;
  };
  const bu = (t: ScaleTicket): number => row(t, siteOf.get(t.elevator)!).net_bu;
  const outcomes = ["filled", "short", "tolerance", "filled", "none", "short", "cancelled"];
  let turn = 0;
  for (const member of members)
    for (const crop of member.crops) {
      const season = history.filter(
        (t) => t.member === member.id && t.crop === crop && t.date >= "2024-09-01" && t.date < "2025-01-01",
      );
      for (let i = 0; i < season.length;) {
        const outcome = outcomes[turn++ % outcomes.length]!;
        const chunk =
          outcome === "none" || outcome === "cancelled" ? [] : season.slice(i, i + random.int(2, 4));
        i += Math.max(chunk.length, 1);
        const sum = chunk.reduce((s, t) => s + bu(t), 0);
        const bushels =
          outcome === "filled"
            ? Math.floor(sum)
            : outcome === "tolerance"
              ? Math.ceil(sum / 0.985)
              : outcome === "short"
                ? Math.ceil(sum / (random.int(55, 93) / 100) / 100) * 100
                : random.int(2, 6) * 1000;
        const id = addContract(member, crop, {
          contract_type: random.pick(["forward", "basis"]),
          bushels,
          signed_on: randomDate(random, "2024-06-01", "2024-09-15"),
          delivery_start: "2024-10-01",
          delivery_end: random.pick(["2024-12-31", "2025-03-31"]),
          status: outcome === "filled" ? "filled" : outcome === "cancelled" ? "cancelled" : "open",
        });
        let applied = 0;
        for (const t of chunk) {
          t.designation = "contract";
          const amount = outcome === "filled" && t === chunk.at(-1) ? round2(bushels - applied) : bu(t);
          applied = round2(applied + amount);
          applications.push({
            ticket_id: t.id,
            contract_id: id,
            bushels: amount,
            applied_on: addDays(t.date, 2),
          });
        }
      }
    }
  for (const t of history)
    insertRow(db, "tickets", row(t, siteOf.get(t.elevator)!, random.chance(0.03) ? "void" : "active"));

  // The journal days: every elevator's deliveries, some voided and reissued, some never keyed.
  const days = dateRange(
    addDays(referenceDate, -(factors.files === 4 ? 8 : factors.files + 2)),
    addDays(referenceDate, -1),
  );
  const perDay = Math.ceil((96 * factors.rows) / (sites.length * days.length));
  const journal: ScaleTicket[] = [];
  let voids = 0;
  let plain = 0;
  for (const day of days)
    for (const site of sites) {
      const local = members.filter((m) => m.home === site);
      const todays = Array.from({ length: perDay + random.int(-2, 2) }, () => {
        const member = random.pick(local);
        const t = ticket(
          member,
          random.pick(member.crops),
          day,
          random.chance(0.62) ? "contract" : random.chance(0.6) ? "spot" : "storage",
        );
        if (random.chance(0.18))
          t.reprobe = {
            ...t.grade,
            moisture: t.grade.moisture + random.int(6, 15) / 10,
            fm: t.grade.fm + random.int(4, 9) / 10,
          };
        return t;
      }).sort((a, b) => a.at - b.at);
      for (const t of todays) t.id = number(site.id);
      const voided = todays[random.int(0, todays.length - 2)]!;
      const reason = random.pick(["wrong member keyed", "printer jam", "wrong account"]);
      const other = local.find((m) => m.id !== voided.member && m.crops.includes(voided.crop));
      const reissue: ScaleTicket = {
        ...voided,
        id: number(site.id),
        member: reason === "wrong member keyed" && other ? other.id : voided.member,
        designation:
          reason === "wrong account"
            ? voided.designation === "contract"
              ? "storage"
              : "contract"
            : voided.designation,
      };
      voided.reissue = {
        ticket: reissue,
        at: Math.min(voided.at + random.int(900, 3600), 19 * 3600),
        reason,
      };
      let fate = 0;
      for (const t of [...todays, reissue]) {
        journal.push(t);
        let keyed: TicketRow | null = row(t, site);
        if (t === voided) {
          fate = voids++ % 4;
          keyed = fate === 3 ? null : row(t, site, fate === 1 ? "active" : "void");
        } else if (plain++ % 11 === 5 || (t === reissue && fate === 0)) {
          keyed = null; // never keyed; a re-probed load among them
          if (t !== reissue)
            t.reprobe ??= { ...t.grade, moisture: t.grade.moisture + 1.2, fm: t.grade.fm + 0.5 };
        } else if (plain % 9 === 4)
          keyed = row(t, site, "active", random.pick([-1, 1]) * random.int(12, 90) * 10);
        else if (plain % 7 === 2) {
          // Inside the tolerance; at pound scales every other drift is exactly the tolerance.
          const drift = site.units === "lb" && plain % 14 === 2 ? 5 : random.int(2, 4);
          keyed = row(t, site, "active", random.pick([-1, 1]) * drift);
        }
        if (keyed) insertRow(db, "tickets", keyed);
      }
      context.writeFile(logPath(site.id, day), renderLog(random, site, day, todays));
    }

  // Today's loads, keyed before today's journal is exported: the fiscal year's last day.
  members.forEach((member, i) => {
    if (i % 4 !== 2) return;
    const t = ticket(member, member.crops[0]!, FISCAL_YEAR.end, "spot");
    t.id = number(t.elevator);
    insertRow(db, "tickets", row(t, member.home));
  });

  // This summer's contracts for the journal tickets: priced and deferred, windows that miss, other elevators.
  const keyed = new Set(
    (
      db
        .prepare("SELECT ticket_id FROM tickets WHERE status = 'active' AND designation = 'contract'")
        .all() as Array<{ ticket_id: string }>
    ).map((r) => r.ticket_id),
  );
  let pair = 0;
  for (const member of members)
    for (const crop of member.crops) {
      const due = journal.filter((t) => t.member === member.id && t.crop === crop && keyed.has(t.id));
      if (due.length === 0 || pair++ % 5 === 4) continue;
      const sum = due.reduce((s, t) => s + bu(t), 0);
      const current = { delivery_start: "2025-05-01", delivery_end: "2025-08-31", status: "open" };
      // Every fourth deferred-price contract's delivery closes on the day of the member's last load.
      addContract(member, crop, {
        ...current,
        ...(pair % 4 === 0 ? { delivery_end: due.at(-1)!.date } : {}),
        contract_type: "deferred_price",
        bushels: random.int(8, 14) * 1000,
        signed_on: randomDate(random, "2025-01-06", "2025-01-31"),
        price: null,
      });
      addContract(member, crop, {
        ...current,
        contract_type: "forward",
        bushels: Math.max(100, Math.floor((sum * 0.55) / 100) * 100),
        signed_on: randomDate(random, "2025-02-03", "2025-03-28"),
      });
      // A basis contract signed before the forward (a higher number, filled first): every other one's
      // delivery opens on the first journal day the member delivered this crop, the others' after the journals.
      if (pair % 2 === 0)
        addContract(member, crop, {
          contract_type: "basis",
          bushels: pair % 4 ? Math.max(100, Math.floor((sum * 0.3) / 100) * 100) : random.int(3, 6) * 1000,
          signed_on: randomDate(random, "2024-12-02", "2024-12-20"),
          delivery_start: pair % 4 ? due[0]!.date : "2025-07-01",
          delivery_end: "2025-09-30",
          status: "open",
        });
      if (pair % 3 === 0 && sites.length > 1) {
        const away = sites[(sites.indexOf(member.home) + 1) % sites.length]!;
        addContract({ ...member, home: away }, crop, {
          ...current,
          contract_type: "forward",
          bushels: random.int(2, 5) * 1000,
          signed_on: randomDate(random, "2024-11-04", "2024-11-29"),
        });
      }
    }
  for (const a of applications) insertRow(db, "applications", a);

  // Bins and their monitoring exports.
  sites.forEach((site, e) => {
    const trends: BinTrend[] = [];
    for (let n = 1; n <= 4 + factors.rows; n += 1) {
      const bin = binId.format((e + 1) * 100 + n);
      const role = n <= 5 ? n : random.pick([1, 5, 5, 2]);
      const empty = role === 4;
      const hot = role === 1 || role === 3;
      // Bin 5 warms just under the threshold over the lookback (over it across four days or a week) and
      // lost a reading on the comparison day (a blank read as 0 lifts its rise over it too).
      const near = n === 5;
      const rise = hot
        ? e === 1 && n === 1
          ? 7.2
          : random.int(65, 100) / 10
        : empty
          ? 8
          : near
            ? random.int(40, 44) / 10
            : random.int(-15, 30) / 10;
      trends.push({
        bin,
        base: empty ? 68 : random.int(48, 62),
        rise,
        dropouts: role === 2 ? [EXPORT_DAYS - 4] : role === 3 ? [EXPORT_DAYS - 1] : [],
        blanks: near ? [EXPORT_DAYS - 4] : random.chance(0.4) ? [random.int(0, EXPORT_DAYS - 1)] : [],
      });
      const crop = empty ? null : random.pick(["corn", "soybeans"]);
      insertRow(db, "bins", {
        bin_id: bin,
        elevator_id: site.id,
        crop,
        capacity_bu: random.int(30, 250) * 1000,
        status: empty ? "empty" : "filled",
      });
      const alert = hot
        ? n === 1 && e === 0
          ? "open"
          : n === 3
            ? "closed"
            : null
        : random.chance(0.2)
          ? "closed"
          : null;
      if (alert)
        insertRow(db, "bin_alerts", {
          bin_id: bin,
          raised_on: addDays(referenceDate, alert === "open" ? -2 : -random.int(20, 90)),
          status: alert,
          note: alert === "open" ? "temperature rising, aeration fans on" : "cooled after aeration",
        });
    }
    context.writeFile(
      monitoringPath(site.id, referenceDate),
      renderExport(random, site.id, site.units === "kg" && e === 1, referenceDate, trends),
    );
  });
  writeCoopDocuments(context, sites);
}
