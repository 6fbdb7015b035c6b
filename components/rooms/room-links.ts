/** In-app paths of a room (router paths: no /web basePath, which the router adds), in the export's canonical form with a trailing slash. */

/** The viewing hall of `roomId`: `/cinema/<id>/`. */
export function cinemaPath(roomId: string): string {
  return `/cinema/${encodeURIComponent(roomId)}/`;
}

/** The join screen for `roomId`: `/joinRoom/<id>/`. */
export function joinRoomPath(roomId: string): string {
  return `/joinRoom/${encodeURIComponent(roomId)}/`;
}

/** localStorage key of a room's cached password, as in the reference client (`room-<id>-pwd`). */
export function roomPasswordKey(roomId: string): string {
  return `room-${roomId}-pwd`;
}

/** Remembers a room password for this device (read back to prefill the join form). */
export function saveRoomPassword(roomId: string, password: string): void {
  if (!password) return;
  try {
    window.localStorage.setItem(roomPasswordKey(roomId), password);
  } catch {
    /* not remembered: the user types it again next time */
  }
}

/** The cached password of a room, or "". */
export function readRoomPassword(roomId: string): string {
  try {
    return window.localStorage.getItem(roomPasswordKey(roomId)) ?? '';
  } catch {
    return '';
  }
}
