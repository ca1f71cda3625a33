/**
 * Grouping in code, for generators and verifiers that gather rows by a key: `groupBy(flights, (f) => f.tail)`
 * instead of the get-or-create-and-push loop.
 */

/** The items grouped by `keyOf`, keys in the order they first appear, each group in the items' order. */
export function groupBy<Item, Key>(items: Iterable<Item>, keyOf: (item: Item) => Key): Map<Key, Item[]> {
  const groups = new Map<Key, Item[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
