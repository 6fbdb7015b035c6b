/**
 * What the current member may do in the open room, for gating controls: derived from `/api/room/me`
 * (role, status, `permissions`, `adminPermissions`) and the site role, with the server's rules
 * (docs/contract.md §3.4, §5.4). `roomAbilitiesAtom` (./atoms.ts) holds the abilities of the open
 * room. The room-wide `can_*` switches (§5.5) count too when the room's settings are known (members
 * may read them; guests may not, so for a guest a refusal from a switch still reaches them as the
 * server's error).
 */
import { AdminPermission, hasPermission, MemberRole, MemberStatus, Permission, Role } from '@/lib/contract/roles';
import type { Movie, RoomMe, RoomSettings } from '@/lib/contract/types';
import { switchesAllow } from '@/lib/contract/room-settings';

export interface RoomAbilities {
  /** The room's creator (member role 3). */
  isCreator: boolean;
  /** A room administrator: member role Admin or Creator (the `room-admin` level of §3.4). */
  isRoomAdmin: boolean;
  canListMovies: boolean;
  canAddMovie: boolean;
  canDeleteMovie: boolean;
  canEditMovie: boolean;
  canSetCurrentMovie: boolean;
  canSetStatus: boolean;
  canChat: boolean;
  /** Join voice chat (the WebRTC bit, §5.4; no room switch turns it off). */
  canVoice: boolean;
  /** Delete one movie: DeleteMovie, or being the movie's creator (§4.5). */
  canDelete: (movie: Movie) => boolean;
  /** Approve pending members (and, as coded in v0.9.11, delete members). */
  canApproveMembers: boolean;
  canBanMembers: boolean;
  canSetMemberPermissions: boolean;
  canSetRoomSettings: boolean;
  canSetRoomPassword: boolean;
  canDeleteRoom: boolean;
}


/**
 * Abilities from `/api/room/me` (undefined: not loaded yet, so nothing is allowed), the site role
 * (`Role.Visitor` for a guest) and the room's settings when known. Member permissions (§5.4, in
 * order): a site admin, the creator and room admins pass; anyone else needs the bit and its switch. Admin permissions: the `/api/room/admin/*`
 * routes first require a room admin or the creator, even for a site admin (§9 quirk 9); then a
 * site admin or the creator passes, and a room admin needs status Active and the bit.
 */
export function roomAbilities(me: RoomMe | undefined, siteRole: number, settings?: RoomSettings | null): RoomAbilities {
  const siteAdmin = siteRole >= Role.Admin;
  const isCreator = me?.role === MemberRole.Creator;
  const isRoomAdmin = me !== undefined && me.role >= MemberRole.Admin;
  const everything = siteAdmin || isRoomAdmin;
  const can = (permission: number) =>
    me !== undefined && (everything || (hasPermission(me.permissions, permission) && (!settings || switchesAllow(settings, permission))));
  const administer = (permission: number) =>
    isRoomAdmin && (siteAdmin || isCreator || (me?.status === MemberStatus.Active && hasPermission(me.adminPermissions, permission)));
  const canDeleteMovie = can(Permission.DeleteMovie);
  return {
    isCreator,
    isRoomAdmin,
    canListMovies: can(Permission.GetMovieList),
    canAddMovie: can(Permission.AddMovie),
    canDeleteMovie,
    canEditMovie: can(Permission.EditMovie),
    canSetCurrentMovie: can(Permission.SetCurrentMovie),
    canSetStatus: can(Permission.SetCurrentStatus),
    canChat: can(Permission.SendChatMessage),
    canVoice: can(Permission.WebRTC),
    canDelete: (movie) => canDeleteMovie || (Boolean(me?.userId) && movie.creatorId === me?.userId),
    canApproveMembers: administer(AdminPermission.ApprovePendingMember),
    canBanMembers: administer(AdminPermission.BanRoomMember),
    canSetMemberPermissions: administer(AdminPermission.SetUserPermission),
    canSetRoomSettings: administer(AdminPermission.SetRoomSettings),
    canSetRoomPassword: administer(AdminPermission.SetRoomPassword),
    canDeleteRoom: administer(AdminPermission.DeleteRoom),
  };
}
