'use client';
import { CinemaView } from '@/components/room/cinema-view';
import { usePathSegment } from '@/hooks/use-path-segment';

/**
 * Reads the room id from the URL after mount (`useParams()` would give the `_` placeholder, and
 * rendering the real id while hydrating fails) and keys the view by it, so that moving between rooms
 * starts each room clean: socket, player and forms.
 */
export function CinemaRoute() {
  const roomId = usePathSegment(1);
  if (!roomId) return <div data-testid="page-cinema" className="flex-1" aria-busy />;
  return <CinemaView roomId={roomId} key={roomId} />;
}
