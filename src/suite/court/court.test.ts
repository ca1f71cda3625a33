import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFERENCE_DATE, listWorkspaceFiles, openToolBench, type ToolBench } from "../../envs/index.js";
import { resultText } from "../../runtime/index.js";
import { courtTasks } from "./index.js";
import { feePaid, parseCaseNumber, parseDate, readProof, splitDocuments } from "./reading.js";
import { holidaySet, responseDeadline } from "./rules.js";
import { enterDefaultsTask } from "./tasks/deadlines.js";
import {
  defaultEligible,
  feeMismatches,
  intakeEntries,
  motionHearings,
  responseDeadlines,
  staleCases,
} from "./tasks/facts.js";
import { courtTools } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(enterDefaultsTask, courtTools)));
afterAll(() => bench.close());

/** The instance of seed `seed` (seed 3 is the bench's own) with a view of its initial state. */
const state = (seed: number) => bench.build({ seed });

async function call(name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string }> {
  const result = await bench.call(name, args);
  return { error: result.isError === true, text: resultText(result) };
}

describe("court readers", () => {
  it("reads case numbers in every written form, O/0 and l/1 misreads included", () => {
    expect(parseCaseNumber("CV-2025-00123")).toBe("CV-2025-00123");
    expect(parseCaseNumber("  CV 25-123")).toBe("CV-2025-00123");
    expect(parseCaseNumber("No. 2O24SC7")).toBe("SC-2024-00007");
    expect(parseCaseNumber("CV-2O25-00l23")).toBe("CV-2025-00123");
  });

  it("reads dates in the papers' styles and receipt amounts through OCR noise", () => {
    for (const text of ["June 3, 2025", "06/03/2025", "6/3/25", "JUN 03 2025", "3 JUN 2025", "2025-06-03"])
      expect(parseDate(text)).toBe("2025-06-03");
    expect(feePaid("  FEE PAID: $ 37O.00")).toBe(370);
    expect(feePaid("FEE PAID: $ 2 25.00")).toBe(225);
  });

  it("counts court days across holidays and extends substituted service by ten days", () => {
    const holidays = holidaySet();
    expect(responseDeadline("2025-06-02", "personal", null, holidays)).toBe("2025-07-01"); // Juneteenth skipped
    expect(responseDeadline("2025-06-02", "substituted", "2025-06-02", holidays)).toBe("2025-07-14"); // from June 12, July 4 skipped too
  });
});

describe("court generator", () => {
  it("writes four rules documents, six service batches and three intake trays at v0", () => {
    const files = listWorkspaceFiles(state(3).instance.workspaceDir);
    expect(files.filter((path) => path.startsWith("scans/service/"))).toHaveLength(6);
    expect(files.filter((path) => path.startsWith("scans/intake/"))).toHaveLength(3);
    expect(files).toHaveLength(13);
    const batch = state(3).view.readFile("scans/service/returns-01.txt")!;
    const proofs = splitDocuments(batch).map(readProof);
    expect(proofs.length).toBeGreaterThan(1);
    for (const proof of proofs)
      expect(proof.caseId && proof.served && proof.method && proof.filed).toBeTruthy();
  });

  it.each([0, 3, 7])("plants the cases the near-misses turn on at seed %i", (seed) => {
    const { view } = state(seed);
    const scans = view
      .listFiles()
      .filter((path) => path.startsWith("scans/service/"))
      .flatMap((path) => splitDocuments(view.readFile(path)!).map(readProof));
    expect(scans.some((proof) => !proof.signed)).toBe(true);
    expect(scans.some((proof) => proof.method === "substituted")).toBe(true);
    const deadlines = responseDeadlines(view);
    expect(deadlines.some((d) => d.due >= REFERENCE_DATE)).toBe(true);
    expect(defaultEligible(view).length).toBeGreaterThan(1);
    expect(feeMismatches(view).size).toBeGreaterThan(2);
    expect(staleCases(view).length).toBeGreaterThan(0);
    expect(motionHearings(view).length).toBeGreaterThan(3);
    expect(intakeEntries(view).length).toBeGreaterThan(4);
    const dated = view.db.prepare("SELECT MAX(entry_date) FROM docket_entries").pluck().get() as string;
    expect(dated < REFERENCE_DATE).toBe(true); // nothing on the docket is dated today or later
  });

  it("registers eight tasks with at least two near-misses each", () => {
    expect(courtTasks).toHaveLength(8);
    for (const task of courtTasks) expect(task.nearMisses.length).toBeGreaterThanOrEqual(2);
  });
});

describe("court tools", () => {
  it("fails an unfiltered docket page once with a 503, and some filing images once with an error body", async () => {
    const page3 = await call("list_docket_entries", { page: 3, per_page: 10 });
    expect(page3.error).toBe(true);
    expect(page3.text).toContain("503 Service Unavailable");
    expect((await call("list_docket_entries", { page: 3, per_page: 10 })).text).toContain('"page":3');
    const flaky = await call("get_filing_text", { filing_id: "FIL-00003" });
    expect(flaky.error).toBe(false);
    expect(flaky.text).toContain('"status":"error"');
    expect((await call("get_filing_text", { filing_id: "FIL-00003" })).text).toContain("FEE PAID");
  });

  it("refuses malformed case numbers, defaults against plaintiffs and hearings in the past", async () => {
    expect((await call("get_case", { case_id: "CV 25-123" })).text).toContain("CV-2025-00123");
    const plaintiff = bench.db
      .prepare(
        "SELECT p.party_id, p.case_id FROM parties p JOIN cases c USING (case_id) WHERE p.role = 'plaintiff' AND c.status = 'open'",
      )
      .get() as { party_id: string; case_id: string };
    const refused = await call("enter_default", plaintiff);
    expect(refused.error).toBe(true);
    expect(refused.text).toContain("not a defendant");
    const motion = bench.db
      .prepare("SELECT filing_id FROM filings WHERE filing_type = 'motion'")
      .pluck()
      .get() as string;
    expect((await call("schedule_hearing", { filing_id: motion, hearing_date: "2025-06-02" })).error).toBe(
      true,
    );
  });
});

describe("court.enter-defaults", () => {
  it("rewards exactly the eligible defaults entered", async () => {
    const expected = defaultEligible(state(3).view);
    bench.reset();
    for (const d of expected)
      expect((await call("enter_default", { case_id: d.case_id, party_id: d.party_id })).error).toBe(false);
    const final = bench.view();
    const passes = async (answer: string): Promise<boolean> => {
      const context = { initial: state(3).view, final, answer, scale: "v0", seed: 3 };
      return (await enterDefaultsTask.verify(context)).every((item) => item.passed);
    };
    expect(await passes(`${expected.length}`)).toBe(true);
    expect(await passes(`${expected.length + 1}`)).toBe(false);
    const other = bench.db
      .prepare(
        "SELECT p.case_id, p.party_id FROM parties p JOIN cases c USING (case_id) WHERE c.status = 'open' AND p.role = 'defendant'",
      )
      .get() as { case_id: string; party_id: string };
    await call("enter_default", other);
    expect(await passes(`${expected.length}`)).toBe(false);
  });
});
