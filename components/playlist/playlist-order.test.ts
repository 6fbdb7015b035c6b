/** Moving a playlist row with the contract's swaps (docs/contract.md §4.5). */
import { applySwaps, swapsFor } from './playlist-order';

const ids = ['a', 'b', 'c', 'd', 'e'];

/** The array with the item at `from` moved to `to` (what a drag and drop shows). */
function moved(list: string[], from: number, to: number): string[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item);
  return copy;
}

describe('swapsFor', () => {
  it('moves an item down or up by swapping it with each neighbour on the way', () => {
    expect(swapsFor(ids, 0, 3)).toEqual([
      ['a', 'b'],
      ['a', 'c'],
      ['a', 'd'],
    ]);
    expect(swapsFor(ids, 4, 1)).toEqual([
      ['e', 'd'],
      ['e', 'c'],
      ['e', 'b'],
    ]);
  });

  it('gives the order of a drag and drop for every move of a five-item list', () => {
    for (let from = 0; from < ids.length; from++) {
      for (let to = 0; to < ids.length; to++) {
        expect(applySwaps(ids, swapsFor(ids, from, to))).toEqual(moved(ids, from, to));
        expect(swapsFor(ids, from, to)).toHaveLength(Math.abs(to - from));
      }
    }
  });

  it('does nothing for no move or indexes out of range', () => {
    expect(swapsFor(ids, 2, 2)).toEqual([]);
    expect(swapsFor(ids, -1, 2)).toEqual([]);
    expect(swapsFor(ids, 1, 5)).toEqual([]);
  });
});
