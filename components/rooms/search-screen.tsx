'use client';
import { Search, SearchX } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { PageHeading } from '@/components/common/page-heading';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input, Select } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { useRoomList } from '@/hooks/data/rooms';
import type { RoomListQuery } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { RoomGrid } from './room-grid';
import { ROOMS_PAGE_SIZE } from './rooms-screen';
import '@/lib/i18n/messages/rooms';
import '@/lib/i18n/plural';

type Scope = NonNullable<RoomListQuery['search']>;
const scopes: Scope[] = ['all', 'name', 'creator', 'id'];

/**
 * `/search`: finds public rooms by name, creator or id (`GET /api/room/list` with `keyword` and
 * `search`). Nothing loads until the first search; changing the field re-runs the current search.
 */
export function SearchScreen() {
  const t = useT();
  const labels = usePaginationLabels();
  const [scope, setScope] = useState<Scope>('all');
  const [keyword, setKeyword] = useState('');
  const [query, setQuery] = useState<RoomListQuery | null>(null);
  const { data, error, isLoading, mutate } = useRoomList(query);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setQuery({ keyword: keyword.trim(), search: scope, page: 1, max: ROOMS_PAGE_SIZE, sort: 'name', order: 'asc' });
  };

  return (
    <div data-testid="page-search" className="space-y-6">
      <PageHeading title={t('route.search')} description={query && data ? t('search.results', { n: data.total }) : undefined} />
      <form role="search" aria-label={t('search.label')} onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor="search-scope" className="sr-only">
          {t('search.scope')}
        </label>
        <Select
          id="search-scope"
          value={scope}
          onChange={(event) => {
            const next = event.target.value as Scope;
            setScope(next);
            if (query) setQuery({ ...query, search: next, page: 1 });
          }}
          className="w-full sm:w-40"
        >
          {scopes.map((value) => (
            <option key={value} value={value}>
              {t(`search.scope.${value}`)}
            </option>
          ))}
        </Select>
        <label htmlFor="search-keyword" className="sr-only">
          {t('search.label')}
        </label>
        <Input
          id="search-keyword"
          type="search"
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
          placeholder={t('search.placeholder')}
          className="flex-1"
          autoComplete="off"
        />
        <Button type="submit" loading={isLoading && query !== null}>
          {isLoading && query !== null ? null : <Search className="h-4 w-4" aria-hidden />}
          {t('search.submit')}
        </Button>
      </form>

      {query === null ? (
        <EmptyState icon={<Search />} title={t('search.prompt')} description={t('search.promptBody')} />
      ) : (
        <>
          <RoomGrid
            rooms={data?.list}
            isLoading={isLoading}
            error={error}
            onRetry={() => void mutate()}
            empty={{ icon: <SearchX />, title: t('search.empty'), description: t('search.emptyBody') }}
          />
          <Pagination
            page={query.page ?? 1}
            pageSize={ROOMS_PAGE_SIZE}
            total={data?.total ?? 0}
            onPageChange={(page) => setQuery({ ...query, page })}
            labels={labels}
          />
        </>
      )}
    </div>
  );
}
