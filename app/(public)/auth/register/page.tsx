import { RegisterScreen } from '@/components/auth/register-screen';

export default function RegisterPage() {
  return <RegisterScreen />;
}
