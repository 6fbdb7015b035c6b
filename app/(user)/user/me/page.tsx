import { ProfileScreen } from '@/components/user/profile-screen';

export default function ProfilePage() {
  return <ProfileScreen />;
}
