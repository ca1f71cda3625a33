import { defineIdFormat } from "../../envs/index.js";

/** Ids, document paths and the newsroom's rules that the generator writes into the workspace documents. */
export const staffId = defineIdFormat({
  field: "staff_id",
  entity: "staff member",
  prefix: "ST-",
  digits: 3,
  listTool: "list_staff",
});
export const storyId = defineIdFormat({
  field: "story_id",
  entity: "story",
  prefix: "STY-",
  digits: 5,
  listTool: "list_stories",
});
export const freelancerId = defineIdFormat({
  field: "freelancer_id",
  entity: "freelancer",
  prefix: "FL-",
  digits: 4,
  listTool: "list_freelancers",
});
export const commissionId = defineIdFormat({
  field: "commission_id",
  entity: "commission",
  prefix: "COM-",
  digits: 5,
  listTool: "list_commissions",
});
export const paymentId = defineIdFormat({
  field: "payment_id",
  entity: "payment",
  prefix: "FP-",
  digits: 5,
  listTool: "list_payments",
});
export const correctionId = defineIdFormat({
  field: "correction_id",
  entity: "correction",
  prefix: "COR-",
  digits: 5,
  listTool: "list_corrections",
});
export const threadId = defineIdFormat({
  field: "thread_id",
  entity: "mail thread",
  prefix: "TH-",
  digits: 5,
  listTool: "list_threads",
});
export const messageId = defineIdFormat({
  field: "message_id",
  entity: "message",
  prefix: "MSG-",
  digits: 6,
  listTool: "get_thread",
});
export const photoId = defineIdFormat({
  field: "photo_id",
  entity: "photo",
  prefix: "PH-",
  digits: 5,
  listTool: "list_photos",
});

export const NEWSROOM = { name: "The Daily Ledger", domain: "dailyledger.example" };

export const DESKS = ["metro", "politics", "business", "sports", "culture", "world"] as const;
export const STORY_STATUSES = ["draft", "edited", "legal_hold", "ready", "published", "spiked"] as const;
export const CORRECTION_KINDS = ["factual", "spelling", "attribution", "caption", "headline"] as const;
export const CHANNELS = ["web", "app", "newsletter", "social", "partner_feed"] as const;
export const MAILBOXES = ["corrections", "legal", "freelance", "desk"] as const;

export const PATHS = {
  styleGuide: "policies/style-guide.md",
  correctionsPolicy: "policies/corrections-policy.md",
  rateCard: "policies/freelance-rate-card.md",
  embargoPolicy: "policies/embargo-policy.md",
  licencesDir: "photo-desk/licences",
  agreementsDir: "freelancers/agreements",
  pressDir: "press-releases",
} as const;

export const TIERS = ["A", "B", "C"] as const;

/** The freelance rate card: per-word article rates and per-image photo rates by tier, kill fees. */
export const RATE_CARD = {
  article: { A: 0.6, B: 0.45, C: 0.3 } as Record<string, number>,
  photo: { A: 250, B: 175, C: 120 } as Record<string, number>,
  minimumArticleFee: 150,
  killAfterFilingPct: 50,
  killBeforeFilingPct: 25,
};

export const STYLE = {
  maxHeadlineChars: 72,
  bannedWords: ["slams", "shock", "bombshell", "epic", "meltdown"],
  staleDraftDays: 21,
  budgetTolerancePct: 10,
};

export const CORRECTIONS = { logWithinBusinessDays: 2 };

/** Phrases the standards editor and the legal desk use for their decisions (the readers parse them). */
export const PHRASES = {
  approve: (kind: string, wording: string) =>
    `Approved - please log this as a ${kind} correction. Wording: "${wording}"`,
  approvePattern: /please log this as an? (\w+) correction\. Wording: "([^"]+)"/,
  decline: "The story stands - no correction.",
  hold: (slug: string) => `HOLD: ${slug} - please do not publish it until we have seen the source documents.`,
  clear: (slug: string) => `CLEARED: ${slug} is fine to run as edited.`,
  legalPattern: /\b(HOLD|CLEARED): ([a-z0-9-]+)/,
};
