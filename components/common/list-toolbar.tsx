'use client';
/**
 * The filter row above a server-paged list (the admin console's tables, the user center's rooms):
 * filter chips, a search box with its scope, sort and order. Every change goes to the server
 * (docs/contract.md §4 list queries); the list goes back to page 1 (hooks/data/server-list.ts).
 */
import { clsx } from 'clsx';
import { Search } from 'lucide-react';
import { Select } from '@/components/ui/input';
import { useT, type MessageKey } from '@/lib/i18n';
import type { ListQuery } from '@/hooks/data/server-list';
import '@/lib/i18n/messages/lists';

export interface ListToolbarProps<Filter extends string, Scope extends string> {
  testId: string;
  filterLabel: MessageKey;
  filters: readonly { value: Filter; label: MessageKey }[];
  searchLabel: MessageKey;
  scopes: readonly { value: Scope; label: MessageKey }[];
  /** The list's query and its `update` (hooks/data/server-list.ts). */
  query: ListQuery<Filter, Scope>;
  onChange: (change: Partial<ListQuery<Filter, Scope>>) => void;
}

export function ListToolbar<Filter extends string, Scope extends string>({ query, onChange, ...props }: ListToolbarProps<Filter, Scope>) {
  const t = useT();
  return (
    <div className="space-y-3">
      <div role="group" aria-label={t(props.filterLabel)} className="flex flex-wrap gap-1.5">
        {props.filters.map(({ value, label }) => (
          <button
            key={value}
            type="button"
            aria-pressed={query.filter === value}
            data-testid={`${props.testId}-filter-${value || 'all'}`}
            onClick={() => onChange({ filter: value })}
            className={clsx(
              'min-h-9 cursor-pointer rounded-full px-3 text-sm font-medium ring-1 ring-inset transition-colors',
              query.filter === value
                ? 'bg-brand-600 text-white ring-brand-600'
                : 'text-zinc-700 ring-zinc-300 hover:bg-zinc-100 dark:text-zinc-300 dark:ring-zinc-700 dark:hover:bg-zinc-800',
            )}
          >
            {t(label)}
          </button>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <label className="relative min-w-0 flex-1 basis-56">
          <span className="sr-only">{t(props.searchLabel)}</span>
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-zinc-500" aria-hidden />
          <input
            type="search"
            data-testid={`${props.testId}-search`}
            value={query.keyword}
            placeholder={t(props.searchLabel)}
            onChange={(event) => onChange({ keyword: event.target.value })}
            className="h-10 w-full rounded-lg border border-zinc-300 bg-white pl-9 pr-3 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          />
        </label>
        <Select aria-label={t('list.scope')} value={query.scope} onChange={(event) => onChange({ scope: event.target.value as Scope })} className="w-auto">
          {props.scopes.map(({ value, label }) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </Select>
        <Select aria-label={t('list.sort')} value={query.sort} onChange={(event) => onChange({ sort: event.target.value as 'name' | 'createdAt' })} className="w-auto">
          <option value="createdAt">{t('list.sort.createdAt')}</option>
          <option value="name">{t('list.sort.name')}</option>
        </Select>
        <Select aria-label={t('list.order')} value={query.order} onChange={(event) => onChange({ order: event.target.value as 'asc' | 'desc' })} className="w-auto">
          <option value="desc">{t('list.order.desc')}</option>
          <option value="asc">{t('list.order.asc')}</option>
        </Select>
      </div>
    </div>
  );
}
