import { JoinRoomScreen } from '@/components/rooms/join-room-screen';

// `/joinRoom/` and one placeholder `/joinRoom/_/`; the server maps every real id onto `_`, and the
// screen reads the id from the URL after mount (docs/static-export.md §1.3–1.4).
export function generateStaticParams() {
  return [{ roomId: [] }, { roomId: ['_'] }];
}

export default function JoinRoomPage() {
  return <JoinRoomScreen />;
}
