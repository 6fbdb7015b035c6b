import { RoomsScreen } from '@/components/rooms/rooms-screen';

export default function RoomsPage() {
  return <RoomsScreen />;
}
