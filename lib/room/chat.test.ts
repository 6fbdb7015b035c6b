import { decodeMessage, encodeMessage, MessageType, type Message } from '@/lib/contract/message';
import { appendLine, chatLineOf, mergeReplay, validLines, type ChatLine } from './chat';

/** A CHAT frame as the server sends it: sender, server time (Unix ms) and text. */
function chat(username: string, text: string, serverMs: number): Message {
  return decodeMessage(
    encodeMessage({
      type: MessageType.CHAT,
      timestamp: BigInt(serverMs),
      sender: { userId: `${username}-id`, username },
      payload: { case: 'chatContent', value: text },
    }),
  );
}

describe('chat lines', () => {
  it('reads a live CHAT at its local receipt time, a replayed one at its server time on the local clock', () => {
    const live = chatLineOf(chat('alice', 'hi', 1_000_000), 2_000_000);
    expect(live).toMatchObject({ username: 'alice', text: 'hi', atMs: 2_000_000, serverAtMs: 1_000_000 });
    expect(live?.earlier).toBeUndefined();
    // The server's clock is 500 ms ahead of ours.
    const replayed = chatLineOf(chat('bob', 'earlier', 1_000_000), 2_000_000, true, (serverMs) => serverMs - 500);
    expect(replayed).toMatchObject({ atMs: 999_500, earlier: true });
    expect(chatLineOf(decodeMessage(encodeMessage({ type: MessageType.VIEWER_COUNT })), 1)).toBeNull();
  });

  it('keeps the newest lines', () => {
    let lines: ChatLine[] = [];
    for (let n = 0; n < 5; n += 1) lines = appendLine(lines, { id: `${n}`, username: 'a', text: `${n}`, atMs: n }, 3);
    expect(lines.map((line) => line.text)).toEqual(['2', '3', '4']);
  });

  it('takes a replay as what the room said: lines seen live keep their place, the rest are earlier, system lines stay in time order', () => {
    const seenLive = { ...chatLineOf(chat('alice', 'seen', 5_000), 5_020)!, id: 'kept-id' };
    const system: ChatLine = { id: 'sys', username: '', text: 'Now playing: clip', atMs: 6_000, system: true };
    const stale: ChatLine = { id: 'old', username: 'carol', text: 'from another session', atMs: 1_000, serverAtMs: 1_000 };
    const replay = [chatLineOf(chat('bob', 'before', 4_000), 9_000, true)!, chatLineOf(chat('alice', 'seen', 5_000), 9_000, true)!, chatLineOf(chat('bob', 'after', 7_000), 9_000, true)!];
    const merged = mergeReplay([stale, seenLive, system], replay);
    expect(merged.map((line) => [line.text, Boolean(line.earlier)])).toEqual([
      ['before', true],
      ['seen', false],
      ['Now playing: clip', false],
      ['after', true],
    ]);
    expect(merged[1].id).toBe('kept-id');
    // An empty replay from a server that keeps history empties the people's lines (a cleared history).
    expect(mergeReplay([stale, system], []).map((line) => line.text)).toEqual(['Now playing: clip']);
  });

  it('restores only well-formed saved lines', () => {
    expect(validLines('nope')).toEqual([]);
    expect(validLines([{ id: 'a', username: 'x', text: 't', atMs: 1 }, { id: 2 }, null])).toHaveLength(1);
  });
});
