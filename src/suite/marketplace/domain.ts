import { defineDomain } from "../../envs/index.js";
import { generateMarketplace } from "./generate.js";
import { marketplaceSchemaSql } from "./schema.js";
import { marketplaceTools } from "./tools.js";

/** An e-commerce marketplace's seller-disputes desk, worked through its server-rendered back office (HTML pages and forms). */
export const marketplaceDomain = defineDomain({
  id: "marketplace",
  title: "Marketplace seller-disputes desk",
  description:
    "The seller-disputes desk of an online marketplace, used through a web back office that returns rendered HTML: paginated dispute, seller and refund listings, case pages with buyer–seller message threads, order pages, the carrier's tracking widget, seller performance pages, and forms with CSRF tokens for escalating cases, issuing refunds and placing sellers on hold. The dispute-resolution, seller-performance and refund policies, the carrier scan reference and the desk's inbox are workspace documents.",
  version: 1,
  schemaSql: marketplaceSchemaSql,
  generate: generateMarketplace,
  tools: marketplaceTools,
});
