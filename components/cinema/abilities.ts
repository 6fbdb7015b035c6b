/**
 * What the current member may do in the room, for gating controls (server-contract.md §5.4). The
 * server's evaluation: a site admin passes everything, then the room creator and room admins, then
 * the member's own bits. (The room-wide `can_*` switches are not visible to members; the server's
 * error covers them.)
 */
import type { Movie, RoomMe } from '@/lib/contract/types';
import { hasPermission, MemberRole, Permission, Role } from '@/lib/contract/roles';

export interface RoomAbilities {
  canListMovies: boolean;
  canAddMovie: boolean;
  canDeleteMovie: boolean;
  canSetCurrentMovie: boolean;
  canSetStatus: boolean;
  canChat: boolean;
  /** Delete one movie: DeleteMovie, or being the movie's creator (§4.5). */
  canDelete: (movie: Movie) => boolean;
}

/** Abilities from `/api/room/me` and the site role (`Role.Visitor` for a guest). */
export function roomAbilities(me: RoomMe | undefined, siteRole: number): RoomAbilities {
  const everything = siteRole >= Role.Admin || (me !== undefined && me.role >= MemberRole.Admin);
  const can = (permission: number) => Boolean(me) && (everything || hasPermission(me?.permissions, permission));
  const canDeleteMovie = can(Permission.DeleteMovie);
  return {
    canListMovies: can(Permission.GetMovieList),
    canAddMovie: can(Permission.AddMovie),
    canDeleteMovie,
    canSetCurrentMovie: can(Permission.SetCurrentMovie),
    canSetStatus: can(Permission.SetCurrentStatus),
    canChat: can(Permission.SendChatMessage),
    canDelete: (movie) => canDeleteMovie || (Boolean(me?.userId) && movie.creatorId === me?.userId),
  };
}
