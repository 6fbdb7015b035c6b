'use client';
/**
 * "From bilibili" in "Add a movie" (docs/vendors.md "bilibili"; the reference client's parse
 * dialog): a link or id (BV, av, a video link with `p=`, `b23.tv`, an episode or season of a series, a
 * live room) parsed by the server, the videos it names listed 20 to a page with a box each (all
 * ticked, or only the page `p=` names), whether the room plays them with the adder's bilibili
 * account or each viewer's own (said in words), and "Add selected" pushing them at once
 * (`POST /api/room/movie/pushs`). Loaded when the mode is chosen.
 */
import { useState, type FormEvent } from 'react';
import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { Pagination } from '@/components/ui/pagination';
import { Notice } from '@/components/common/notice';
import { useErrorDescription } from '@/hooks/use-error-description';
import { usePaginationLabels } from '@/hooks/use-pagination-labels';
import { parseBilibili, useBilibiliMe } from '@/hooks/data/vendors';
import type { BilibiliPage, BilibiliVideoInfo, MovieBase } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import type { MoviePushFormProps } from './movie-push';
import { usePushSelected } from './use-push-selected';
import '@/lib/i18n/messages/vendors';

/** Videos per page, as the reference client's dialog. */
const PAGE_SIZE = 20;

/** The MovieBase of a parsed video (docs/vendors.md "A bilibili movie"); `shared`: played with the adder's account. */
export function bilibiliBase(info: BilibiliVideoInfo, options: { shared: boolean; parentId: string }): MovieBase {
  return {
    name: info.name,
    url: '',
    type: '',
    live: info.live,
    proxy: false,
    rtmpSource: false,
    parentId: options.parentId,
    vendorInfo: { vendor: 'bilibili', backend: '', bilibili: { bvid: info.bvid, cid: info.cid, epid: info.epid, shared: options.shared } },
  };
}

/** The page (from 1) a video link names with `p=`, or null. */
export function pageOfLink(link: string): number | null {
  const match = /[?&]p=(\d+)/.exec(link);
  return match ? Number(match[1]) : null;
}

export function BilibiliPicker({ roomId, parentId, onPushed }: MoviePushFormProps) {
  const t = useT();
  const paginationLabels = usePaginationLabels();
  const me = useBilibiliMe();
  const [link, setLink] = useState('');
  const [parsing, setParsing] = useState(false);
  const [parseError, setParseError] = useState<unknown>(null);
  const [result, setResult] = useState<BilibiliPage | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [page, setPage] = useState(1);
  const [shared, setShared] = useState(true);
  const { adding, failure, setFailure, push } = usePushSelected(roomId, onPushed);
  const parseText = useErrorDescription(parseError)?.message;
  const failureText = useErrorDescription(failure)?.message;
  const bound = me.data?.isLogin === true;

  const parse = async (event: FormEvent) => {
    event.preventDefault();
    const text = link.trim();
    if (!text) {
      setParseError(new Error(t('bilibiliPicker.linkRequired')));
      return;
    }
    setParsing(true);
    setParseError(null);
    setFailure(null);
    try {
      const parsed = await parseBilibili(text);
      const wanted = pageOfLink(text);
      const all = parsed.videoInfos.map((_, index) => index);
      setResult(parsed);
      setSelected(new Set(wanted && wanted <= all.length && !parsed.videoInfos[0]?.epid ? [wanted - 1] : all));
      setPage(wanted && wanted <= all.length ? Math.ceil(wanted / PAGE_SIZE) : 1);
    } catch (error) {
      setResult(null);
      setParseError(error);
    } finally {
      setParsing(false);
    }
  };

  const toggle = (index: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(index);
    else next.delete(index);
    setSelected(next);
  };

  const videos = result?.videoInfos ?? [];
  const add = () =>
    push(
      [...selected].sort((a, b) => a - b).map((index) => bilibiliBase(videos[index], { shared, parentId })),
      () => {
        setResult(null);
        setLink('');
      },
    );

  const shown = videos.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <div className="space-y-3" data-testid="bilibili-picker">
      <form noValidate onSubmit={parse} className="flex flex-wrap items-start gap-2">
        <div className="min-w-0 flex-1 basis-56">
          <TextField
            id="bilibili-link"
            label={t('bilibiliPicker.link')}
            hint={t('bilibiliPicker.linkHint')}
            error={parseError ? parseText : undefined}
            autoComplete="off"
            inputMode="url"
            value={link}
            onChange={(event) => {
              setLink(event.target.value);
              setParseError(null);
            }}
          />
        </div>
        <Button type="submit" className="mt-6" disabled={parsing} data-testid="bilibili-parse">
          {parsing ? t('bilibiliPicker.parsing') : t('bilibiliPicker.parse')}
        </Button>
      </form>

      {result ? (
        <section aria-labelledby="bilibili-result-title" className="space-y-3" data-testid="bilibili-result">
          <div>
            <h3 id="bilibili-result-title" className="text-sm font-semibold" data-testid="bilibili-result-title">
              {result.title}
            </h3>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              {result.actors ? `${t('bilibiliPicker.actors', { actors: result.actors })} · ` : ''}
              {t('bilibiliPicker.count', { count: videos.length })}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" data-testid="bilibili-select-all" onClick={() => setSelected(new Set(videos.map((_, index) => index)))}>
              {t('bilibiliPicker.selectAll')}
            </Button>
            <Button variant="outline" size="sm" data-testid="bilibili-select-none" onClick={() => setSelected(new Set())}>
              {t('bilibiliPicker.selectNone')}
            </Button>
          </div>
          <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
            {shown.map((info, offset) => {
              const index = (page - 1) * PAGE_SIZE + offset;
              const id = info.live ? t('bilibiliPicker.liveRoom', { id: info.cid ?? '' }) : info.epid ? `EP${info.epid}` : `${info.bvid ?? ''} · P${index + 1}`;
              return (
                <li key={`${info.bvid}:${info.cid}:${info.epid}`} className="px-3 py-1.5" data-testid="bilibili-video">
                  <Checkbox id={`bilibili-video-${index}`} checked={selected.has(index)} onChange={(event) => toggle(index, event.target.checked)} label={info.name} hint={id} />
                </li>
              );
            })}
          </ul>
          <Pagination page={page} pageSize={PAGE_SIZE} total={videos.length} onPageChange={setPage} labels={paginationLabels} />
          <Checkbox
            id="bilibili-shared"
            data-testid="bilibili-shared"
            checked={shared}
            onChange={(event) => setShared(event.target.checked)}
            label={t('bilibiliPicker.shared')}
            hint={t(shared ? 'bilibiliPicker.sharedOn' : 'bilibiliPicker.sharedOff')}
          />
          {shared && me.data && !bound ? (
            <Notice tone="warning" testId="bilibili-picker-unbound">
              {t(me.data.expired ? 'bilibiliPicker.expired' : 'bilibiliPicker.unbound')}{' '}
              <Link href="/user/me#platforms" className="font-medium underline underline-offset-2">
                {t('bilibiliPicker.goBind')}
              </Link>
            </Notice>
          ) : null}
          {failure ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {failureText}
            </p>
          ) : null}
          <Button onClick={() => void add()} disabled={adding} data-testid="bilibili-add">
            {t('alistPicker.add', { count: selected.size })}
          </Button>
        </section>
      ) : null}
    </div>
  );
}
