/**
 * Splits a chat message into text and http(s) links, so that the chat can make links clickable and
 * keep everything else as plain text (chat is never HTML, docs/contract.md §11 b). Only absolute
 * `http://` and `https://` URLs that `new URL()` accepts become links; `javascript:`, `data:` and
 * anything else stay text. Trailing punctuation that usually ends a sentence is not part of a link.
 */

/** A run of a message: text, or a link with the URL it opens (`href`, normalised by `URL`). */
export type ChatPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const LINK = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Characters that end a sentence rather than a URL, when they close the match. */
const TRAILING = /[.,;:!?)\]}'"。，；：！？）】]+$/u;

/** The message as parts, in order; concatenating their `text` gives the message back. */
export function splitChatLinks(message: string): ChatPart[] {
  const parts: ChatPart[] = [];
  let last = 0;
  for (const match of message.matchAll(LINK)) {
    let candidate = match[0];
    // Keep a closing bracket that has its opening one inside the URL (Wikipedia-style links).
    const trailing = TRAILING.exec(candidate)?.[0] ?? '';
    let cut = trailing.length;
    if (trailing.startsWith(')') && candidate.slice(0, -cut).includes('(')) cut -= 1;
    candidate = candidate.slice(0, candidate.length - cut);
    const start = match.index;
    let href: string | null = null;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') href = url.href;
    } catch {
      href = null;
    }
    if (!href) continue;
    if (start > last) parts.push({ kind: 'text', text: message.slice(last, start) });
    parts.push({ kind: 'link', text: candidate, href });
    last = start + candidate.length;
  }
  if (last < message.length) parts.push({ kind: 'text', text: message.slice(last) });
  return parts;
}
