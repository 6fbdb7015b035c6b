/** Public endpoints (docs/contract.md §4.1). */
import { get } from './client';
import type { PublicSettings } from '@/lib/contract/types';

/**
 * `GET /api/public/settings` (§4.1): signup switches, `guestEnable`, email whitelist, `p2pZone`.
 * Throws `ApiError` on failure.
 */
export function getPublicSettings(): Promise<PublicSettings> {
  return get<PublicSettings>('/api/public/settings');
}
