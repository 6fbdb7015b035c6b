import { LoginScreen } from '@/components/auth/login-screen';

export default function LoginPage() {
  return <LoginScreen />;
}
