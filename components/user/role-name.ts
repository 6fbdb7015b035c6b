import type { MessageKey } from '@/lib/i18n';
import { Role } from '@/lib/contract/roles';

const roleKeys: Record<number, MessageKey> = {
  [Role.Visitor]: 'role.visitor',
  [Role.Unknown]: 'role.unknown',
  [Role.Banned]: 'role.banned',
  [Role.Pending]: 'role.pending',
  [Role.User]: 'role.user',
  [Role.Admin]: 'role.admin',
  [Role.Root]: 'role.root',
};

/** Catalogue key of a site role's display name (docs/contract.md §5.1); unknown values read "Unknown". */
export function roleNameKey(role: number): MessageKey {
  return roleKeys[role] ?? 'role.unknown';
}
