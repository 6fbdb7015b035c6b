import { HomeScreen } from '@/components/rooms/home-screen';

export default function HomePage() {
  return <HomeScreen />;
}
