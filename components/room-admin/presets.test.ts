/** Room presets (docs/contract.md §5.4, §5.5): what each writes and how a room is recognised. */
import { Permission } from '@/lib/contract/roles';
import type { RoomSettings } from '@/lib/contract/types';
import { DEFAULT_ROOM_SETTINGS } from '@/lib/contract/room-settings';
import { ALL_MEMBER_BITS, matchPreset, PRESETS, WATCH_BITS } from './presets';

const defaults: RoomSettings = { ...DEFAULT_ROOM_SETTINGS };

const apply = (id: string) => ({ ...defaults, ...PRESETS.find((preset) => preset.id === id)!.settings });

describe('room presets', () => {
  it('recognise a new room as the default preset, and each applied preset as itself', () => {
    expect(matchPreset(defaults)).toBe('watch');
    for (const preset of PRESETS) expect(matchPreset(apply(preset.id))).toBe(preset.id);
    expect(matchPreset({ ...defaults, can_add_movie: false })).toBeNull();
  });

  it('"everyone controls" gives new and existing members every bit, playback control included', () => {
    const everyone = apply('everyone');
    expect(ALL_MEMBER_BITS).toBe(255);
    expect(everyone.user_default_permissions & Permission.SetCurrentStatus).toBe(Permission.SetCurrentStatus);
    expect(PRESETS[0].memberPermissions).toBe(255);
    expect(everyone.can_set_current_status && everyone.can_set_current_movie && everyone.can_add_movie).toBe(true);
  });

  it('"only admins control" turns the control switches off and keeps watching and chatting', () => {
    const admins = apply('adminsOnly');
    expect(admins).toMatchObject({
      can_set_current_status: false,
      can_set_current_movie: false,
      can_add_movie: false,
      can_edit_movie: false,
      can_delete_movie: false,
      can_get_movie_list: true,
      can_send_chat_message: true,
      user_default_permissions: WATCH_BITS,
    });
    // The guest settings and access rules are left alone by every preset.
    for (const preset of PRESETS) {
      expect(Object.keys(preset.settings)).not.toEqual(expect.arrayContaining(['guest_permissions']));
      expect(Object.keys(preset.settings)).not.toEqual(expect.arrayContaining(['hidden']));
    }
  });
});
