import type { ModelClient } from "../harness/index.js";
import type { DomainContext } from "./domain-context.js";
import { runToolSession, type StageUsage } from "./tool-session.js";

export interface Intent {
  /** kebab-case, unique: the task id is `<domain>.<slug>`. */
  slug: string;
  /** The user's request, in their words. */
  request: string;
}

const SLUG = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** Requests at least this similar (token-set Jaccard) to an earlier one are dropped as near-duplicates. */
export const NEAR_DUPLICATE_SIMILARITY = 0.6;

function tokenSet(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/[^a-z0-9\s]/g, " ")
      .split(/\s+/)
      .filter((token) => token.length > 2),
  );
}

/** Jaccard similarity of the normalised token sets (lower case, punctuation and tokens under 3 letters dropped). */
export function tokenSetSimilarity(left: string, right: string): number {
  const a = tokenSet(left);
  const b = tokenSet(right);
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** Keeps the first of every group of near-duplicates (and of equal slugs); drops malformed entries. */
export function dedupeIntents(
  candidates: readonly unknown[],
  existing: readonly Intent[] = [],
): { kept: Intent[]; dropped: Array<{ slug: string; reason: string }> } {
  const kept: Intent[] = [];
  const dropped: Array<{ slug: string; reason: string }> = [];
  for (const raw of candidates) {
    const item = raw as { slug?: unknown; request?: unknown };
    const slug = typeof item?.slug === "string" ? item.slug.trim() : "";
    const request = typeof item?.request === "string" ? item.request.trim() : "";
    if (!SLUG.test(slug) || slug.length > 60 || request.length < 20 || request.length > 4_000) {
      dropped.push({
        slug: slug || "(none)",
        reason: "malformed: needs a kebab-case slug and a request of 20-4000 characters",
      });
      continue;
    }
    const all = [...existing, ...kept];
    if (all.some((other) => other.slug === slug)) {
      dropped.push({ slug, reason: "duplicate slug" });
      continue;
    }
    const similar = all.find(
      (other) => tokenSetSimilarity(other.request, request) >= NEAR_DUPLICATE_SIMILARITY,
    );
    if (similar) {
      dropped.push({ slug, reason: `near-duplicate of ${similar.slug}` });
      continue;
    }
    kept.push({ slug, request });
  }
  return { kept, dropped };
}

const SYSTEM = `You design evaluation tasks for tool-using agents. You propose realistic requests that a user of a business system would make: each needs many tool calls over the domain's records and documents (not a single lookup), has one verifiable outcome (an exact answer and/or exact changes to the records), and follows a rule stated in the domain's documents. Never propose anything the tools cannot do.`;

/**
 * Asks the model for intents until `count` distinct ones are collected (at most `maxAttempts` sessions),
 * dropping near-duplicates of each other and of `existing`.
 */
export async function proposeIntents(options: {
  client: ModelClient;
  context: DomainContext;
  count: number;
  usage: StageUsage;
  existing?: readonly Intent[];
  maxAttempts?: number;
  signal?: AbortSignal;
}): Promise<{ intents: Intent[]; dropped: Array<{ slug: string; reason: string }> }> {
  const intents: Intent[] = [];
  const dropped: Array<{ slug: string; reason: string }> = [];
  const existing = options.existing ?? [];
  for (
    let attempt = 0;
    attempt < (options.maxAttempts ?? 3) && intents.length < options.count;
    attempt += 1
  ) {
    const taken = [...existing, ...intents];
    let proposed: unknown[] = [];
    const user = [
      `Propose ${options.count - intents.length} distinct user requests for this domain. Call propose_intents once.`,
      taken.length > 0
        ? `Already taken (do not repeat or rephrase):\n${taken.map((item) => `- ${item.slug}: ${item.request}`).join("\n")}`
        : "",
      options.context.apiPage,
    ]
      .filter(Boolean)
      .join("\n\n");
    await runToolSession({
      client: options.client,
      system: SYSTEM,
      user,
      maxTurns: 2,
      maxTokensPerTurn: 4_096,
      usage: options.usage,
      ...(options.signal ? { signal: options.signal } : {}),
      isDone: () => proposed.length > 0,
      tools: [
        {
          name: "propose_intents",
          description: "Submit the proposed user requests.",
          parameters: {
            type: "object",
            properties: {
              intents: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    slug: { type: "string", description: "kebab-case name, e.g. overdue-invoice-reminders" },
                    request: { type: "string", description: "the user's request in their own words" },
                  },
                  required: ["slug", "request"],
                },
              },
            },
            required: ["intents"],
          },
          handler: (args) => {
            if (!Array.isArray(args.intents)) throw new Error("intents must be an array of {slug, request}");
            proposed = args.intents;
            return `received ${proposed.length} intents`;
          },
        },
      ],
    });
    const result = dedupeIntents(proposed, taken);
    intents.push(...result.kept.slice(0, options.count - intents.length));
    dropped.push(...result.dropped);
  }
  return { intents, dropped };
}
