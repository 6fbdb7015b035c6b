import { HostingGuide } from '@/components/help/hosting-guide';

export default function HostingPage() {
  return <HostingGuide />;
}
