import type { StateView } from "../../../envs/index.js";
import { PATHS, type ContractTerms } from "../rules.js";

/** The negotiated terms of every contract excerpt in the workspace, by subscription id. */
export function readContracts(state: StateView): Map<string, ContractTerms> {
  const contracts = new Map<string, ContractTerms>();
  for (const path of state.listFiles().filter((file) => file.startsWith(`${PATHS.contractsDir}/`))) {
    const terms = JSON.parse(state.readFile(path) ?? "{}") as ContractTerms;
    contracts.set(terms.subscription_id, terms);
  }
  return contracts;
}

/** The contract discount on one invoice's seat charges: the percentage, limited to the cap. */
export function contractDiscount(
  seatCharges: number,
  terms: ContractTerms | undefined,
  capped = true,
): number {
  if (!terms) return 0;
  const discount = Math.round(seatCharges * terms.discount_pct) / 100;
  return capped ? Math.min(discount, terms.discount_cap_per_invoice) : discount;
}
