/**
 * The room settings object of docs/contract.md §5.5: its defaults, and the room-wide switch that
 * gates each member permission bit (§5.4). Shared by the companion server (storage, authorization)
 * and the client (abilities, presets).
 */
import { Permission } from './roles';
import type { RoomSettings } from './types';

/** Default room settings (§5.5): what a new room has. */
export const DEFAULT_ROOM_SETTINGS: Readonly<RoomSettings> = {
  user_default_permissions: 193,
  guest_permissions: 0,
  disable_guest: false,
  join_need_review: false,
  disable_join_new_user: false,
  hidden: false,
  can_get_movie_list: true,
  can_add_movie: true,
  can_delete_movie: true,
  can_edit_movie: true,
  can_set_current_movie: true,
  can_set_current_status: true,
  can_send_chat_message: true,
  auto_convert: false,
};

/** The `can_*` keys of §5.5: one room-wide switch per member permission bit (WebRTC has none). */
export type PermissionSwitch =
  | 'can_get_movie_list'
  | 'can_add_movie'
  | 'can_edit_movie'
  | 'can_delete_movie'
  | 'can_set_current_movie'
  | 'can_set_current_status'
  | 'can_send_chat_message';

/** Each member permission bit and the switch that must be on for it (§5.4 step 4), in the panel's order. */
export const PERMISSION_SWITCHES: readonly (readonly [number, PermissionSwitch])[] = [
  [Permission.GetMovieList, 'can_get_movie_list'],
  [Permission.AddMovie, 'can_add_movie'],
  [Permission.EditMovie, 'can_edit_movie'],
  [Permission.DeleteMovie, 'can_delete_movie'],
  [Permission.SetCurrentMovie, 'can_set_current_movie'],
  [Permission.SetCurrentStatus, 'can_set_current_status'],
  [Permission.SendChatMessage, 'can_send_chat_message'],
];

/** Whether the room-wide switches of `settings` allow every bit of `permission` for plain members. */
export function switchesAllow(settings: Pick<RoomSettings, PermissionSwitch>, permission: number): boolean {
  return PERMISSION_SWITCHES.every(([bit, key]) => (permission & bit) === 0 || settings[key]);
}
