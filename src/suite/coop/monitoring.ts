/**
 * Bin temperature monitoring exports (`monitoring/<elevator>/bin-temps-<date>.csv`): one row per sensor per
 * scan (every four hours, several cables per bin), `-999` where a sensor dropped out and blank cells where a
 * scan was lost. One elevator's controller exports Celsius (`temp_c`). Verifiers read them with `readBinDays`.
 */
import { addDays, dateRange } from "../../envs/index.js";
import type { GenerateContext, StateView } from "../../envs/index.js";

type Random = GenerateContext["random"];

export interface BinTrend {
  bin: string;
  /** Temperature in degrees F on the first day; the rise (degrees F) every three days, linear. */
  base: number;
  rise: number;
  /** Day indexes (0 = first) with a -999 dropout, and with a blank cell. */
  dropouts: number[];
  blanks: number[];
}

export const EXPORT_DAYS = 8;
export const monitoringPath = (elevator: string, referenceDate: string): string =>
  `monitoring/${elevator}/bin-temps-${referenceDate}.csv`;

/** One elevator's export: the last EXPORT_DAYS days before the reference date. */
export function renderExport(
  random: Random,
  elevator: string,
  celsius: boolean,
  referenceDate: string,
  bins: BinTrend[],
): string {
  const days = dateRange(addDays(referenceDate, -EXPORT_DAYS), addDays(referenceDate, -1));
  const rows: string[] = [];
  days.forEach((day, index) => {
    for (let hour = 2; hour < 24; hour += 4)
      for (const bin of bins)
        for (const cable of [1, 2])
          for (let sensor = 1; sensor <= 4; sensor += 1) {
            const f = bin.base + (bin.rise * index) / 3 + (sensor - 2.5) * 0.4 + (random.next() - 0.5) * 0.6;
            let cell = celsius ? ((f - 32) / 1.8).toFixed(1) : f.toFixed(1);
            const first = hour === 2 && cable === 1 && sensor === 1;
            if (first && bin.dropouts.includes(index)) cell = "-999";
            if (first && bin.blanks.includes(index)) cell = "";
            rows.push(`${day} ${String(hour).padStart(2, "0")}:00,${bin.bin},C${cable},S${sensor},${cell}`);
          }
  });
  const head = [
    `# GrainWatch TMS export  site ${elevator}  generated ${referenceDate} 06:00`,
    `# sensors: -999 = sensor fault; blank = no reading`,
    `scan_time,bin_id,cable,sensor,${celsius ? "temp_c" : "temp_f"}`,
  ];
  return `${[...head, ...rows].join("\n")}\n`;
}

/** Average temperature (F) per bin per day over the valid sensor readings of every export. */
export function readBinDays(state: StateView): Map<string, Map<string, number>> {
  const sums = new Map<string, Map<string, [number, number]>>();
  for (const path of state.listFiles().filter((p) => /^monitoring\/.*\.csv$/.test(p))) {
    const lines = (state.readFile(path) ?? "").split("\n").filter((l) => l && !l.startsWith("#"));
    const celsius = lines[0]!.endsWith("temp_c");
    for (const line of lines.slice(1)) {
      const [time, bin, , , cell] = line.split(",");
      if (cell === undefined || cell === "" || Number(cell) === -999) continue;
      const f = celsius ? Number(cell) * 1.8 + 32 : Number(cell);
      const perDay = sums.get(bin!) ?? new Map<string, [number, number]>();
      const [sum, n] = perDay.get(time!.slice(0, 10)) ?? [0, 0];
      perDay.set(time!.slice(0, 10), [sum + f, n + 1]);
      sums.set(bin!, perDay);
    }
  }
  return new Map(
    [...sums].map(([bin, days]) => [bin, new Map([...days].map(([day, [sum, n]]) => [day, sum / n]))]),
  );
}
