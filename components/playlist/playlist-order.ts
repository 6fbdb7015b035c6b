/**
 * Playlist order (docs/contract.md §4.5): the contract moves movies only by swapping two of them
 * (`POST /api/room/movie/swap`, which exchanges their positions). Pure, so the reorder view and its
 * tests share it.
 */

/**
 * The swaps, in order, that move the item at index `from` of `ids` to index `to`: each swaps it with
 * its neighbour on the way, so the others keep their relative order (the result equals moving the
 * item in the array). Empty when `from` equals `to` or either is out of range.
 */
export function swapsFor(ids: readonly string[], from: number, to: number): [string, string][] {
  if (from === to || from < 0 || to < 0 || from >= ids.length || to >= ids.length) return [];
  const step = to > from ? 1 : -1;
  const moving = ids[from];
  const swaps: [string, string][] = [];
  for (let index = from; index !== to; index += step) swaps.push([moving, ids[index + step]]);
  return swaps;
}

/** `ids` after applying `swaps` (each exchanges the places of its two ids); for checking `swapsFor`. */
export function applySwaps(ids: readonly string[], swaps: readonly [string, string][]): string[] {
  const order = [...ids];
  for (const [a, b] of swaps) {
    const i = order.indexOf(a);
    const j = order.indexOf(b);
    if (i < 0 || j < 0) continue;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
