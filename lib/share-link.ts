/**
 * Where a room's share link points (docs/features.md "Sharing a room"): the site's address as its
 * admin set it (`host`, which the companion server reports as `siteAddress` in the public settings)
 * leads; without one, the address this page was opened at. A link on a loopback or unspecified
 * address (localhost, 127.0.0.1, ::1, 0.0.0.0) works on this machine only, and the share dialog
 * says so.
 */
import { BASE_PATH } from '@/lib/contract/export-layout';

/**
 * The origin share links use: `siteAddress` (with or without a scheme; a scheme-less one takes the
 * page's) when it parses, else `pageOrigin`. No trailing slash.
 */
export function shareOrigin(siteAddress: string | undefined, pageOrigin: string): string {
  const address = siteAddress?.trim();
  if (!address) return pageOrigin;
  try {
    const protocol = new URL(pageOrigin).protocol;
    return new URL(address.includes('://') ? address : `${protocol}//${address}`).origin;
  } catch {
    return pageOrigin;
  }
}

/** The join link of a room on `origin`, with the password when given. */
export function shareLink(origin: string, roomId: string, password = ''): string {
  const link = `${origin}${BASE_PATH}/joinRoom/${roomId}/`;
  return password ? `${link}?pwd=${encodeURIComponent(password)}` : link;
}

/** True when `origin` names this machine only (loopback or unspecified), so nobody else can open a link on it. */
export function onlyThisMachine(origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1' || host === '0.0.0.0' || host === '::' || /^::ffff:127\./i.test(host);
}
