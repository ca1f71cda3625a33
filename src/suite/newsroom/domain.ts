import { defineDomain } from "../../envs/index.js";
import { generateNewsroom } from "./generate.js";
import { newsroomSchemaSql } from "./schema.js";
import { newsroomTools } from "./tools.js";

/** A newspaper's editorial desk: stories, freelancers, corrections and the desk's mail. */
export const newsroomDomain = defineDomain({
  id: "newsroom",
  title: "Newsroom editorial desk",
  description:
    "The editorial desk of a daily newspaper: staff, stories with embargoes and publication events on each channel, freelance commissions and payments, the corrections log, photos, and the shared mailboxes (corrections requests, legal reads, freelance invoices) as mail clients show them: quoted replies, forwarded messages, signatures and text attachments. The style guide, corrections policy, legal-reads procedure, freelance rate card, embargo policy, photo licences and contributor agreements are workspace documents.",
  version: 1,
  schemaSql: newsroomSchemaSql,
  generate: generateNewsroom,
  tools: newsroomTools,
});
