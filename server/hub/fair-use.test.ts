/** @jest-environment node */
import { admitted, FairUse, FLOOD_PENALTY_MS, personKey, type Admission } from './fair-use';
import { SOCKET_LIMITS } from './token-bucket';

describe('FairUse', () => {
  it('counts sockets per person and per address, and frees a place on release (once per admission)', () => {
    const fair = new FairUse({ perUser: 2, perAddress: 3 });
    const a = personKey('a'.repeat(32), false, '10.0.0.1');
    const first = fair.admit(a, '10.0.0.1', 0) as Admission;
    const second = fair.admit(a, '10.0.0.2', 0) as Admission;
    expect(admitted(first) && admitted(second)).toBe(true);
    expect(fair.admit(a, '10.0.0.3', 0)).toEqual({ over: 'user' });
    fair.release(first, 1);
    fair.release(first, 1);
    expect(fair.count(a, '10.0.0.1')).toEqual({ person: 1, address: 0 });
    expect(admitted(fair.admit(a, '10.0.0.1', 2))).toBe(true);
    expect(fair.admit(a, '10.0.0.1', 2)).toEqual({ over: 'user' });
  });

  it('limits guests by their address only, and shares one budget among the guests of an address', () => {
    const fair = new FairUse({ perUser: 1, perAddress: 3 });
    const guest = personKey('guest', true, '10.0.0.9');
    const sockets = [0, 1, 2].map(() => fair.admit(guest, '10.0.0.9', 0) as Admission);
    expect(sockets.every(admitted)).toBe(true);
    expect(fair.admit(guest, '10.0.0.9', 0)).toEqual({ over: 'address' });
    expect(sockets[0].buckets.chat).toBe(sockets[2].buckets.chat);
  });

  it('keeps a person’s budget for a while after their last socket closes, then forgets them', () => {
    const fair = new FairUse({ perUser: 0, perAddress: 0 });
    const key = personKey('b'.repeat(32), false, '10.0.0.1');
    const socket = fair.admit(key, '10.0.0.1', 0) as Admission;
    for (let i = 0; i < SOCKET_LIMITS.chat.capacity; i++) expect(socket.buckets.chat.take(0)).toBe(true);
    fair.release(socket, 0);
    const reopened = fair.admit(key, '10.0.0.1', 1) as Admission;
    expect(reopened.buckets.chat.take(1)).toBe(false);
    fair.release(reopened, 1);
    fair.admit('c'.repeat(32), '10.0.0.2', 20_000); // a later admission sweeps the idle ones
    const later = fair.admit(key, '10.0.0.1', 20_001) as Admission;
    expect(later.buckets.chat).not.toBe(reopened.buckets.chat);
    expect(fair.count(key, '10.0.0.1')).toEqual({ person: 1, address: 1 });
  });

  it('refuses every socket of a person closed for flooding for FLOOD_PENALTY_MS, and only theirs', () => {
    const fair = new FairUse({ perUser: 20, perAddress: 100 });
    const flooder = personKey('f'.repeat(32), false, '10.0.0.1');
    const socket = fair.admit(flooder, '10.0.0.1', 0) as Admission;
    fair.penalize(flooder, 0);
    fair.release(socket, 0);
    expect(fair.admit(flooder, '10.0.0.1', 1)).toEqual({ over: 'user' });
    expect(admitted(fair.admit('g'.repeat(32), '10.0.0.1', 1))).toBe(true);
    expect(fair.admit(flooder, '10.0.0.1', FLOOD_PENALTY_MS - 1)).toEqual({ over: 'user' });
    expect(admitted(fair.admit(flooder, '10.0.0.1', FLOOD_PENALTY_MS))).toBe(true);
  });
});
