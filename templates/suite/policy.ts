// The late-fee policy as the workspace document states it. The generator draws the numbers, writes the
// document, and the verifier reads the document back: the expected fees follow exactly the text the agent
// read, never a constant that could drift from it.
import { parseMarkdownTable, renderMarkdown } from "progagent";
import type { Tier } from "./schema.js";

export interface LateFeePolicy {
  // A loan is charged only when it is MORE than this many days past its due date.
  graceDays: number;
  // Dollars per day past the due date, per member tier (0 means exempt).
  dailyRate: Record<Tier, number>;
  // The most one loan is ever charged, in dollars.
  capPerLoan: number;
}

// The policy as a Markdown document (kit: renderMarkdown gives headings, paragraphs and pipe tables).
export function renderPolicy(policy: LateFeePolicy): string {
  return renderMarkdown("Late fees", [
    "Effective 1 March 2025. These rules apply to loans that are still out; a loan that has been returned is settled at the desk and is never charged here.",
    { heading: "Grace period" },
    `A loan is charged only when it is more than ${policy.graceDays} days past its due date.`,
    { heading: "Daily rates" },
    "The fee is the member's daily rate times every day since the due date (the grace days count too).",
    {
      table: {
        headers: ["member tier", "per day late"],
        rows: Object.entries(policy.dailyRate).map(([tier, rate]) => [tier, rate.toFixed(2)]),
      },
    },
    { heading: "Cap" },
    `The fee of one loan is never more than $${policy.capPerLoan.toFixed(2)}.`,
  ]);
}

// Reads the numbers back from the document's text; throws when the text is not the policy's shape.
export function parsePolicy(text: string): LateFeePolicy {
  const grace = /more than (\d+) days past its due date/.exec(text);
  const cap = /never more than \$(\d+\.\d\d)/.exec(text);
  if (!grace || !cap) throw new Error("the late-fee policy document lost its grace period or cap");
  // parseMarkdownTable: the body rows of the first table under the heading that contains "Daily rates".
  const rates = parseMarkdownTable(text, "Daily rates");
  const dailyRate = Object.fromEntries(rates.map(([tier, rate]) => [tier, Number(rate)])) as Record<
    Tier,
    number
  >;
  return { graceDays: Number(grace[1]), dailyRate, capPerLoan: Number(cap[1]) };
}
