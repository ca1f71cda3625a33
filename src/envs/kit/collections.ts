/**
 * Items grouped by a key, in the order each key first appears, each group in the items' order; `valueOf`
 * stores something other than the item (a date, an id).
 *
 * @example
 * groupBy(priceChanges, (change) => change.sku);                        // Map sku -> changes
 * groupBy(lines, (line) => line.sku, (line) => line.orderId);           // Map sku -> order ids
 */
export function groupBy<Item, Key, Value = Item>(
  items: Iterable<Item>,
  keyOf: (item: Item) => Key,
  valueOf: (item: Item) => Value = (item) => item as unknown as Value,
): Map<Key, Value[]> {
  const groups = new Map<Key, Value[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(valueOf(item));
    else groups.set(key, [valueOf(item)]);
  }
  return groups;
}

/**
 * The total of a number per key, keys in the order each first appears (units per cabinet, amount per account).
 *
 * @example
 * sumBy(stock, (row) => row.location_id, (row) => row.quantity);        // Map location -> units
 */
export function sumBy<Item, Key>(
  items: Iterable<Item>,
  keyOf: (item: Item) => Key,
  valueOf: (item: Item) => number,
): Map<Key, number> {
  const sums = new Map<Key, number>();
  for (const item of items) {
    const key = keyOf(item);
    sums.set(key, (sums.get(key) ?? 0) + valueOf(item));
  }
  return sums;
}
