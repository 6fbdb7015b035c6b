/**
 * Room presets: a few sets of room settings (docs/contract.md §5.5) that a person understands at a
 * glance, and what applying one means. Pure; the settings panel and the after-create notice apply
 * them through lib/api/room-admin.ts.
 *
 * The `can_*` switches only restrict (a member needs the switch and their own bit, §5.4), so a preset
 * that lets members do more also raises the members' own bits: new members through
 * `user_default_permissions`, members who already joined one by one (`memberPermissions`; only the
 * creator may set those, §4.4).
 */
import { Permission } from '@/lib/contract/roles';
import type { RoomSettings } from '@/lib/contract/types';
import { PERMISSION_SWITCHES, type PermissionSwitch } from '@/lib/contract/room-settings';

export type PresetId = 'everyone' | 'adminsOnly' | 'watch';

/** The switches of §5.5 that gate member permissions, in the panel's order. */
export const SWITCH_KEYS: readonly PermissionSwitch[] = PERMISSION_SWITCHES.map(([, key]) => key);

/** Every member bit of §5.4 (255). */
export const ALL_MEMBER_BITS = Object.values(Permission).reduce((mask, bit) => mask | bit, 0);
/** List, chat and voice: the contract's default for new members (193). */
export const WATCH_BITS = Permission.GetMovieList | Permission.SendChatMessage | Permission.WebRTC;

/** What a preset writes: the settings patch, and the bits that members who already joined get. */
export interface Preset {
  id: PresetId;
  settings: Partial<RoomSettings>;
  /** The permission mask every plain member gets (`null`: members keep theirs). */
  memberPermissions: number | null;
}

const allSwitches = (on: boolean, except: readonly PermissionSwitch[] = []) =>
  Object.fromEntries(SWITCH_KEYS.map((key) => [key, except.includes(key) ? !on : on])) as Pick<RoomSettings, PermissionSwitch>;

export const PRESETS: readonly Preset[] = [
  {
    id: 'everyone',
    settings: { ...allSwitches(true), user_default_permissions: ALL_MEMBER_BITS },
    memberPermissions: ALL_MEMBER_BITS,
  },
  {
    id: 'adminsOnly',
    settings: {
      ...allSwitches(false, ['can_get_movie_list', 'can_send_chat_message']),
      user_default_permissions: WATCH_BITS,
    },
    memberPermissions: null,
  },
  {
    id: 'watch',
    settings: { ...allSwitches(true), user_default_permissions: WATCH_BITS },
    memberPermissions: WATCH_BITS,
  },
];

/** The preset whose settings the room has now, or null ("custom"). */
export function matchPreset(settings: RoomSettings): PresetId | null {
  const found = PRESETS.find((preset) =>
    Object.entries(preset.settings).every(([key, value]) => settings[key as keyof RoomSettings] === value),
  );
  return found?.id ?? null;
}
