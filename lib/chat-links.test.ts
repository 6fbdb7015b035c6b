/** Chat links: only http(s) URLs become links; everything else, markup included, stays text. */
import { splitChatLinks } from './chat-links';

const joined = (message: string) => splitChatLinks(message).map((part) => part.text).join('');

describe('splitChatLinks', () => {
  it('finds http and https links inside text and gives the text back unchanged', () => {
    const message = 'see https://example.com/a?b=1#c and http://x.test/path, then stop.';
    expect(splitChatLinks(message)).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.com/a?b=1#c', href: 'https://example.com/a?b=1#c' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://x.test/path', href: 'http://x.test/path' },
      { kind: 'text', text: ', then stop.' },
    ]);
    expect(joined(message)).toBe(message);
  });

  it('never links other schemes or markup', () => {
    for (const message of ['javascript:alert(1)', 'data:text/html,<b>x</b>', '<a href="https://x.test">x</a>', 'ftp://files.test/a', 'www.example.com']) {
      const parts = splitChatLinks(message);
      expect(parts.filter((part) => part.kind === 'link' && !part.href.startsWith('https://x.test'))).toEqual([]);
      expect(joined(message)).toBe(message);
    }
    // A quoted URL inside markup ends at the quote.
    expect(splitChatLinks('<a href="https://x.test">x</a>').find((part) => part.kind === 'link')).toMatchObject({ href: 'https://x.test/' });
  });

  it('leaves sentence punctuation and full-width punctuation out, and keeps balanced brackets', () => {
    expect(splitChatLinks('看这个https://example.com/视频。').find((part) => part.kind === 'link')?.text).toBe('https://example.com/视频');
    expect(splitChatLinks('(https://en.wikipedia.org/wiki/Foo_(bar))').find((part) => part.kind === 'link')?.text).toBe(
      'https://en.wikipedia.org/wiki/Foo_(bar)',
    );
  });
});
