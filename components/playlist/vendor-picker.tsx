'use client';
/**
 * "From AList" and "From Emby/Jellyfin" in "Add a movie" (docs/vendors.md): the user's bound servers
 * as folders, with a breadcrumb, a search in the open folder, paging, and a box on every entry that
 * can be added; "Add selected" pushes them at once (`POST /api/room/movie/pushs`) with `vendorInfo`.
 * AList: files and folders (a folder becomes a dynamic folder), a password for a locked folder, and
 * the proxy switch for links viewers cannot open. Emby/Jellyfin: libraries → series → seasons →
 * episodes, films and episodes added, and a library, series or season as a dynamic folder (always
 * played through this server). A bound server itself opens but is not added. Without a bound server it
 * says where to bind one. Loaded when the mode is chosen.
 */
import { useState, type FormEvent } from 'react';
import Link from 'next/link';
import { ChevronRight, Folder } from 'lucide-react';
import { Button, buttonClasses } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { SearchInput } from '@/components/ui/search-input';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { Notice } from '@/components/common/notice';
import { LoadError } from '@/components/common/load-error';
import { useErrorDescription } from '@/hooks/use-error-description';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { useVendorBindings, useVendorList } from '@/hooks/data/vendors';
import type { BindableVendor, MovieBase, VendorItem } from '@/lib/contract/types';
import { useT, type MessageKey } from '@/lib/i18n';
import { isRegistered } from '@/lib/i18n/messages';
import type { MoviePushFormProps } from './movie-push';
import { usePushSelected } from './use-push-selected';
import '@/lib/i18n/messages/vendors';

/** Entries per page, as the reference client's picker. */
const PAGE_SIZE = 10;

/** The MovieBase of one picked entry (docs/vendors.md "An AList movie", "An Emby movie"). */
export function vendorBase(vendor: BindableVendor, item: VendorItem, options: { password: string; proxy: boolean; parentId: string }): MovieBase {
  const base = { name: item.name, url: '', type: '', live: false, rtmpSource: false, parentId: options.parentId };
  if (vendor === 'emby') return { ...base, proxy: true, isFolder: item.isDir, vendorInfo: { vendor: 'emby', emby: { path: item.path } } };
  return { ...base, proxy: options.proxy, isFolder: item.isDir, vendorInfo: { vendor: 'alist', alist: { path: item.path, password: options.password } } };
}

/** Whether an entry is a bound server (`<serverId>/`, the first level when several are bound), which opens but is not added. */
function isServer(item: VendorItem): boolean {
  return item.path.endsWith('/');
}

/** The picker's texts by vendor. */
const TEXTS = {
  alist: { title: 'alistPicker.title', noBinding: 'alistPicker.noBinding', goBind: 'alistPicker.goBind', notFound: 'alist server not found' },
  emby: { title: 'embyPicker.title', noBinding: 'embyPicker.noBinding', goBind: 'embyPicker.goBind', notFound: 'emby server not found' },
} as const;

export function VendorPicker({ vendor, roomId, parentId, onPushed }: MoviePushFormProps & { vendor: BindableVendor }) {
  const texts = TEXTS[vendor];
  const t = useT();
  const paginationLabels = usePaginationLabels();
  const [path, setPath] = useState('');
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState('');
  // The password typed for the open folder, and the one the listing is asked with.
  const [passwordInput, setPasswordInput] = useState('');
  const [password, setPassword] = useState('');
  const [selected, setSelected] = useState<Map<string, { item: VendorItem; password: string }>>(new Map());
  const [proxy, setProxy] = useState(false);
  const { adding, failure, push } = usePushSelected(roomId, onPushed);
  const list = useVendorList(vendor, { path, password, keyword, page, max: PAGE_SIZE }, true);
  // With one bound server, "all servers" is that server's top: its own crumb says it.
  const bindings = useVendorBindings(vendor);
  const listError = useErrorDescription(list.error);
  const failureText = useErrorDescription(failure)?.message;

  const open = (next: string) => {
    setPath(next);
    setPage(1);
    setKeyword('');
    setSearch('');
    setPassword('');
    setPasswordInput('');
  };
  const toggle = (item: VendorItem, on: boolean) => {
    const next = new Map(selected);
    if (on) next.set(item.path, { item, password });
    else next.delete(item.path);
    setSelected(next);
  };
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setKeyword(search.trim());
    setPage(1);
  };
  const add = () =>
    push(
      [...selected.values()].map(({ item, password: folderPassword }) => vendorBase(vendor, item, { password: folderPassword, proxy, parentId })),
      () => setSelected(new Map()),
    );

  if (listError?.text === texts.notFound && path === '') {
    return (
      <div className="space-y-3" data-testid={`${vendor}-picker`}>
        <p className="text-sm text-zinc-600 dark:text-zinc-300" data-testid={`${vendor}-picker-unbound`}>
          {t(texts.noBinding)}
        </p>
        <Link href="/user/me#platforms" className={buttonClasses('outline', 'sm')}>
          {t(texts.goBind)}
        </Link>
      </div>
    );
  }

  const needsPassword = listError?.text === 'alist folder password';
  const items = list.data?.items ?? [];
  const allCrumbs = list.data?.paths ?? [{ name: '', path: '' }];
  const crumbs = bindings.data?.length === 1 && allCrumbs.length > 1 ? allCrumbs.slice(1) : allCrumbs;
  return (
    <div className="space-y-3" data-testid={`${vendor}-picker`}>
      <nav aria-label={t(texts.title)} data-testid={`${vendor}-breadcrumb`}>
        <ol className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
          {crumbs.map((crumb, index) => (
            <li key={`${crumb.path}:${index}`} className="flex min-w-0 items-center gap-1">
              {index > 0 ? <ChevronRight className="h-3.5 w-3.5 shrink-0 text-zinc-400" aria-hidden /> : null}
              {index === crumbs.length - 1 ? (
                <span aria-current="page" className="truncate font-medium">
                  {crumb.name || t('alistPicker.home')}
                </span>
              ) : (
                <button type="button" className="cursor-pointer truncate text-brand-700 hover:underline dark:text-brand-300" onClick={() => open(crumb.path)}>
                  {crumb.name || t('alistPicker.home')}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {path ? (
        <form role="search" onSubmit={onSearch} className="flex items-center gap-1">
          <SearchInput label={t('alistPicker.searchLabel')} data-testid={`${vendor}-search`} value={search} placeholder={t('alistPicker.search')} onChange={(event) => setSearch(event.target.value)} />
        </form>
      ) : null}

      {needsPassword ? (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            setPassword(passwordInput);
          }}
        >
          <TextField
            id="alist-folder-password"
            label={t('alistPicker.folderPassword')}
            type="password"
            autoComplete="off"
            autoFocus
            hint={password ? undefined : t('alistPicker.folderPasswordHint')}
            error={password ? listError?.message : undefined}
            value={passwordInput}
            onChange={(event) => setPasswordInput(event.target.value)}
          />
          <Button type="submit" size="sm" variant="outline" data-testid="alist-folder-open">
            {t('alistPicker.open')}
          </Button>
        </form>
      ) : list.error ? (
        <LoadError title={texts.title} error={list.error} onRetry={() => void list.mutate()} />
      ) : !list.data ? (
        <div className="space-y-2" aria-busy="true">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} className="h-9" />
          ))}
        </div>
      ) : items.length === 0 ? (
        <p className="py-4 text-center text-sm text-zinc-500 dark:text-zinc-400">{keyword ? t('alistPicker.searchEmpty', { keyword }) : t('alistPicker.empty')}</p>
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" data-testid={`${vendor}-items`} aria-busy={list.isValidating}>
          {items.map((item) => (
            <li key={item.path} className="flex min-h-11 items-center gap-2 px-3 text-sm" data-testid={`${vendor}-item`}>
              {!isServer(item) ? (
                <input
                  type="checkbox"
                  className="h-4 w-4 shrink-0 cursor-pointer accent-brand-600"
                  aria-label={t('alistPicker.select', { name: item.name })}
                  data-testid={`${vendor}-item-select`}
                  checked={selected.has(item.path)}
                  onChange={(event) => toggle(item, event.target.checked)}
                />
              ) : (
                // A bound server (with several, the first level) opens; its folders and files are added.
                <span className="w-4 shrink-0" aria-hidden />
              )}
              {item.isDir ? <Folder className="h-4 w-4 shrink-0 text-amber-500" aria-hidden /> : null}
              {item.isDir ? (
                <button type="button" className="min-w-0 flex-1 cursor-pointer truncate text-left font-medium hover:underline" data-testid={`${vendor}-item-open`} onClick={() => open(item.path)}>
                  {item.name}
                </button>
              ) : (
                <span className="min-w-0 flex-1 truncate">{item.name}</span>
              )}
              {!item.isDir && item.size ? <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{(item.size / 1024 / 1024).toFixed(1)} MB</span> : null}
              {item.type && isRegistered(`embyPicker.type.${item.type}`) ? (
                <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{t(`embyPicker.type.${item.type}` as MessageKey)}</span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageSize={PAGE_SIZE} total={list.data?.total ?? 0} onPageChange={setPage} labels={paginationLabels} />

      {vendor === 'alist' ? (
        <Checkbox id="alist-proxy" data-testid="alist-proxy" label={t('alistPicker.proxy')} hint={t('alistPicker.proxyHint')} checked={proxy} onChange={(event) => setProxy(event.target.checked)} />
      ) : (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('embyPicker.viaServer')}</p>
      )}
      {[...selected.values()].some(({ item }) => item.isDir) ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{t(vendor === 'alist' ? 'alistPicker.folderNote' : 'embyPicker.folderNote')}</p> : null}
      {failure ? (
        <Notice tone="error" testId={`${vendor}-picker-failure`}>
          {failureText}
        </Notice>
      ) : null}
      <Button className="w-full" data-testid={`${vendor}-picker-add`} loading={adding} onClick={() => void add()}>
        {t('alistPicker.add', { count: selected.size })}
      </Button>
    </div>
  );
}
