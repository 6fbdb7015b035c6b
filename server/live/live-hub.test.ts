/** @jest-environment node */
/**
 * The live hub's rules (docs/live.md) with packets made by hand: a viewer who comes mid-stream
 * starts at the last key frame with the codec headers; a viewer who falls too far behind is
 * dropped; a second publisher takes over and the first is closed; a stream whose movie went away
 * ends within a sweep.
 */
import AVPacket from 'node-media-server/src/core/avpacket.js';
import { LIVE_CHECK_EVERY_MS, LiveHub, MAX_VIEWER_BACKLOG_BYTES, type LiveViewer } from './live-hub';

/** A video packet (`flags` 2 header, 3 key frame, 4 inter frame) or metadata (5) whose payload is one byte, `mark`. */
function packet(flags: number, mark: number): AVPacket {
  const value = new AVPacket();
  value.codec_type = flags === 5 ? 18 : 9;
  value.flags = flags;
  value.data = Buffer.from([mark]);
  value.size = 1;
  return value;
}

/** A viewer that records the payload byte of each FLV tag it gets (the header as 'H'). */
class Viewer implements LiveViewer {
  readonly marks: (number | 'H')[] = [];
  ended = false;
  backlog = 0;
  write(chunk: Buffer): number {
    // FLV header: 'FLV'; a tag: 11 bytes of tag header, then the payload.
    this.marks.push(chunk.subarray(0, 3).toString() === 'FLV' ? 'H' : chunk[11]);
    return this.backlog;
  }
  end(): void {
    this.ended = true;
  }
}

describe('LiveHub', () => {
  let live = new Set<string>();
  let hub: LiveHub;
  beforeEach(() => {
    jest.useFakeTimers();
    live = new Set(['m1']);
    hub = new LiveHub(async (_roomId, movieId) => live.has(movieId));
  });
  afterEach(() => {
    hub.close();
    jest.useRealTimers();
  });

  it('starts a viewer who comes mid-stream at the last key frame, after the metadata and codec header', () => {
    const publisher = { close: jest.fn() };
    const publication = hub.publish('r1', 'm1', publisher);
    expect(hub.watch('m2', new Viewer())).toBeNull();
    for (const [flags, mark] of [[5, 1], [2, 2], [3, 10], [4, 11], [3, 20], [4, 21]]) publication.packet(packet(flags, mark));
    const viewer = new Viewer();
    expect(hub.watch('m1', viewer)).not.toBeNull();
    expect(viewer.marks).toEqual(['H', 1, 2, 20, 21]);
    publication.packet(packet(4, 22));
    expect(viewer.marks.at(-1)).toBe(22);

    // The publisher leaves: the viewer's stream ends, and nobody can watch until the next push.
    publication.end();
    expect(viewer.ended).toBe(true);
    expect(hub.isPublishing('m1')).toBe(false);
    expect(hub.watch('m1', new Viewer())).toBeNull();
  });

  it('drops a viewer who cannot keep up, and only that viewer', () => {
    const publication = hub.publish('r1', 'm1', { close: jest.fn() });
    publication.packet(packet(3, 1));
    const slow = new Viewer();
    const fast = new Viewer();
    hub.watch('m1', slow);
    hub.watch('m1', fast);
    slow.backlog = MAX_VIEWER_BACKLOG_BYTES + 1;
    publication.packet(packet(4, 2));
    expect(slow.ended).toBe(true);
    publication.packet(packet(4, 3));
    expect(slow.marks.at(-1)).toBe(2);
    expect(fast.marks.slice(-2)).toEqual([2, 3]);
    expect(fast.ended).toBe(false);
  });

  it('lets a second push of the movie take over: the first publisher is closed and its packets go nowhere', () => {
    const first = { close: jest.fn() };
    const firstPublication = hub.publish('r1', 'm1', first);
    const viewer = new Viewer();
    firstPublication.packet(packet(3, 1));
    hub.watch('m1', viewer);
    const secondPublication = hub.publish('r1', 'm1', { close: jest.fn() });
    expect(first.close).toHaveBeenCalledTimes(1);
    expect(viewer.ended).toBe(true);
    firstPublication.packet(packet(3, 9));
    // The first connection's close arrives late: it does not end the new broadcast.
    firstPublication.end();
    expect(hub.isPublishing('m1')).toBe(true);
    secondPublication.packet(packet(3, 2));
    const next = new Viewer();
    hub.watch('m1', next);
    expect(next.marks).toEqual(['H', 2]);
  });

  it('ends a broadcast within a sweep once its movie or room is gone', async () => {
    const publisher = { close: jest.fn() };
    hub.publish('r1', 'm1', publisher).packet(packet(3, 1));
    const viewer = new Viewer();
    hub.watch('m1', viewer);
    // The sweep asks the store (asynchronously) whether each movie may still be broadcast.
    await jest.advanceTimersByTimeAsync(LIVE_CHECK_EVERY_MS);
    expect(publisher.close).not.toHaveBeenCalled();
    live.delete('m1');
    await jest.advanceTimersByTimeAsync(LIVE_CHECK_EVERY_MS);
    expect(publisher.close).toHaveBeenCalledTimes(1);
    expect(viewer.ended).toBe(true);
    expect(hub.isPublishing('m1')).toBe(false);
  });
});
