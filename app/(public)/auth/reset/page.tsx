import { ComingSoonScreen } from '@/components/common/coming-soon-screen';

// Password reset by email needs the email settings and captcha flows of a later issue.
export default function ResetPage() {
  return <ComingSoonScreen routeName="reset" title="route.reset" body="comingSoon.reset" />;
}
