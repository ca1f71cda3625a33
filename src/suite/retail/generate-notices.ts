import { addDays, groupBy } from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { SUPPLIERS } from "./catalog.js";
import type { NoticeDraft, OrderDraft, ProductDraft } from "./model.js";

/**
 * Supplier notices: recalls naming SKUs that sit in open orders (some also in shipped ones, which must be left
 * alone), recall updates that remove and add SKUs, and informational notices that list SKUs but need no action.
 */
export function makeNotices(
  random: SeededRandom,
  today: string,
  orders: OrderDraft[],
  products: ProductDraft[],
  factors: { rows: number; files: number },
): NoticeDraft[] {
  const open = orders.filter((order) => order.status === "pending" || order.status === "processing");
  const openLines = open.flatMap((order) => order.lines.map((line) => ({ sku: line.sku, order })));
  const openSkus = groupBy(
    openLines,
    (line) => line.sku,
    (line) => line.order,
  );
  const shippedSkus = new Set(
    orders
      .filter((order) => order.status === "shipped" || order.status === "delivered")
      .flatMap((order) => order.lines.map((line) => line.sku)),
  );
  const used = new Set<string>();
  const inScope = new Set<string>();
  const bySupplier = (supplier: string): ProductDraft[] =>
    products.filter((product) => product.supplier === supplier && !used.has(product.sku));
  const openCount = (supplier: string): number =>
    bySupplier(supplier).filter((product) => openSkus.has(product.sku)).length;
  const recalledSuppliers = new Set<string>();
  const inProcessing = (sku: string): boolean =>
    (openSkus.get(sku) ?? []).some((order) => order.status === "processing");
  // SKUs that keep a processing order in the recall scope; recall updates never remove them.
  const anchors = new Set<string>();

  const kinds: NoticeDraft["type"][] = [
    "Product recall",
    "Recall update",
    "Packaging change",
    "Product recall",
    "Product discontinuation",
    "Product recall",
    "Wholesale cost change",
    "Recall update",
  ];
  const count = 2 * factors.files;
  // Bigger catalogues mean bigger recalls: more SKUs per notice as the store grows.
  const skusPerRecall = 2 + Math.floor(factors.rows / 2);
  const notices: NoticeDraft[] = [];
  const year = today.slice(0, 4);
  const firstNumber = random.int(20, 60);
  for (let index = 0; index < count; index += 1) {
    const type = kinds[index % kinds.length] as NoticeDraft["type"];
    const issued = addDays(today, -Math.round(12 - (index * 11) / Math.max(1, count - 1)));
    const noticeId = `SN-${year}-${String(firstNumber + index).padStart(3, "0")}`;
    const take = (pool: ProductDraft[], amount: number): string[] => {
      const picked = random
        .shuffle(pool)
        .slice(0, amount)
        .map((product) => product.sku);
      for (const sku of picked) used.add(sku);
      return picked;
    };
    if (type === "Product recall") {
      const score = (supplier: string): number =>
        openCount(supplier) + (bySupplier(supplier).some((product) => inProcessing(product.sku)) ? 100 : 0);
      const suppliers = random
        .shuffle(SUPPLIERS.filter((supplier) => !recalledSuppliers.has(supplier)))
        .sort((left, right) => score(right) - score(left));
      const supplier = suppliers[0] ?? random.pick(SUPPLIERS);
      recalledSuppliers.add(supplier);
      const pool = bySupplier(supplier);
      const withOpen = pool.filter((product) => openSkus.has(product.sku));
      // Prefer SKUs also in shipped orders (those must be left alone) and in processing orders.
      const rank = (product: ProductDraft): number =>
        Number(shippedSkus.has(product.sku)) + 2 * Number(inProcessing(product.sku));
      withOpen.sort((left, right) => rank(right) - rank(left));
      const openPicked = withOpen
        .slice(0, skusPerRecall + (index === 0 ? 1 : 0))
        .map((product) => product.sku);
      const anchor = openPicked.find(inProcessing);
      if (anchor) anchors.add(anchor);
      for (const sku of openPicked) used.add(sku);
      const quiet = take(
        bySupplier(supplier).filter((product) => !openSkus.has(product.sku)),
        1,
      );
      const affected = [...openPicked, ...quiet];
      for (const sku of affected) inScope.add(sku);
      notices.push({ noticeId, supplier, issued, type, amends: null, affected, removed: [], added: [] });
    } else if (type === "Recall update") {
      const target = [...notices].reverse().find((notice) => notice.type === "Product recall");
      if (!target) continue;
      // Remove a SKU that sits in open orders on its own, so wrongly keeping it cancels an extra order.
      const removable = target.affected.filter((sku) => openSkus.has(sku) && !anchors.has(sku));
      const isolated = removable.filter((sku) =>
        (openSkus.get(sku) ?? []).some((order) =>
          order.lines.every((line) => line.sku === sku || !inScope.has(line.sku)),
        ),
      );
      const removed = (isolated.length > 0 ? isolated : removable).slice(0, 1);
      for (const sku of removed) inScope.delete(sku);
      const addPool = bySupplier(target.supplier);
      const addOpen = addPool.filter((product) => openSkus.has(product.sku));
      const added = take(addOpen.length > 0 ? addOpen : addPool, 1);
      for (const sku of added) inScope.add(sku);
      notices.push({
        noticeId,
        supplier: target.supplier,
        issued,
        type,
        amends: target.noticeId,
        affected: [],
        removed,
        added,
      });
    } else {
      const supplier = random.pick(SUPPLIERS);
      const pool = bySupplier(supplier);
      const withOpen = pool.filter((product) => openSkus.has(product.sku));
      const affected = take(withOpen.length >= 2 ? withOpen : pool, random.int(2, 3));
      notices.push({ noticeId, supplier, issued, type, amends: null, affected, removed: [], added: [] });
    }
  }
  ensureUpdatesMatter(notices, open, bySupplier, anchors, used);
  return notices;
}

function draftScope(notices: NoticeDraft[], applyUpdates: boolean): Set<string> {
  const scope = new Set<string>();
  for (const notice of notices) {
    if (notice.type === "Product recall") for (const sku of notice.affected) scope.add(sku);
    if (notice.type === "Recall update" && applyUpdates) {
      for (const sku of notice.removed) scope.delete(sku);
      for (const sku of notice.added) scope.add(sku);
    }
  }
  return scope;
}

/**
 * Someone who reads only the original recalls must end up cancelling a different set of orders;
 * otherwise the recall updates would be decoration. Swap in another removal or addition until they matter.
 */
function ensureUpdatesMatter(
  notices: NoticeDraft[],
  open: OrderDraft[],
  bySupplier: (supplier: string) => ProductDraft[],
  anchors: Set<string>,
  used: Set<string>,
): void {
  const affected = (scope: Set<string>): string =>
    open
      .filter((order) => order.lines.some((line) => scope.has(line.sku)))
      .map((order) => order.id)
      .join(",");
  const differs = (): boolean => affected(draftScope(notices, true)) !== affected(draftScope(notices, false));
  if (differs()) return;
  const openSkus = new Set(open.flatMap((order) => order.lines.map((line) => line.sku)));
  for (const update of notices.filter((notice) => notice.type === "Recall update")) {
    const target = notices.find((notice) => notice.noticeId === update.amends);
    if (!target) continue;
    const original = [...update.removed];
    for (const sku of target.affected.filter(
      (candidate) => !anchors.has(candidate) && openSkus.has(candidate),
    )) {
      update.removed = [sku];
      if (differs()) return;
    }
    update.removed = original;
    for (const product of bySupplier(target.supplier).filter((candidate) => openSkus.has(candidate.sku))) {
      update.added.push(product.sku);
      if (differs()) {
        used.add(product.sku);
        return;
      }
      update.added.pop();
    }
  }
}
