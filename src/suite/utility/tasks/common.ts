/** What every utility task shares: the domain and the oracle/near-miss cells built from one variant. */
import { variantTaskDefiner } from "../../../envs/index.js";
import { utilityDomain } from "../domain.js";
import { UTILITY_PY } from "./python.js";

/** A utility task: the oracle and near-misses are its cell builder run on variants, after UTILITY_PY. */
export const defineUtilityTask = variantTaskDefiner(utilityDomain, UTILITY_PY);
