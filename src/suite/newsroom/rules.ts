import { prefixedId } from "../../envs/index.js";

export const staffId = prefixedId("staff_id", "staff member", "ST-", 3, "list_staff");
export const storyId = prefixedId("story_id", "story", "STY-", 5, "list_stories");
export const freelancerId = prefixedId("freelancer_id", "freelancer", "FL-", 4, "list_freelancers");
export const commissionId = prefixedId("commission_id", "commission", "COM-", 5, "list_commissions");
export const paymentId = prefixedId("payment_id", "payment", "FP-", 5, "list_payments");
export const correctionId = prefixedId("correction_id", "correction", "COR-", 5, "list_corrections");
export const threadId = prefixedId("thread_id", "mail thread", "TH-", 5, "list_threads");
export const messageId = prefixedId("message_id", "message", "MSG-", 6, "get_thread");
export const photoId = prefixedId("photo_id", "photo", "PH-", 5, "list_photos");

export const NEWSROOM = { name: "The Daily Ledger", domain: "dailyledger.example" };

export const DESKS = ["metro", "politics", "business", "sports", "culture", "world"] as const;
export const STORY_STATUSES = ["draft", "edited", "legal_hold", "ready", "published", "spiked"] as const;
export const CORRECTION_KINDS = ["factual", "spelling", "attribution", "caption", "headline"] as const;
export const CHANNELS = ["web", "app", "newsletter", "social", "partner_feed"] as const;
export const MAILBOXES = ["corrections", "legal", "freelance", "desk"] as const;
export const STAFF_ROLES = ["reporter", "desk_editor", "standards", "legal", "photo_editor"] as const;
export const TIERS = ["A", "B", "C"] as const;

export const PATHS = {
  styleGuide: "policies/style-guide.md",
  correctionsPolicy: "policies/corrections-policy.md",
  legalReads: "policies/legal-reads.md",
  rateCard: "policies/freelance-rate-card.md",
  embargoPolicy: "policies/embargo-policy.md",
  licencesDir: "photo-desk/licences",
  agreementsDir: "freelancers/agreements",
  pressDir: "press-releases",
} as const;

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
