import { SearchScreen } from '@/components/rooms/search-screen';

export default function SearchPage() {
  return <SearchScreen />;
}
