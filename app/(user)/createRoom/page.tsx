import { CreateRoomScreen } from '@/components/rooms/create-room-screen';

export default function CreateRoomPage() {
  return <CreateRoomScreen />;
}
