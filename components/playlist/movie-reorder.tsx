'use client';
/**
 * Reordering the shown page of the playlist by drag and drop (dnd-kit: pointer, touch and keyboard:
 * focus a handle, Space to pick up, arrows to move, Space to drop, Escape to cancel; dnd-kit
 * announces each step to screen readers). The contract only swaps two movies
 * (`POST /api/room/movie/swap`, §4.5), so moving a row by n places is n swaps with its neighbours,
 * sent one after the other; the list shows the new order at once and every viewer gets MOVIES.
 * Downloaded when reordering is first turned on.
 */
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useMemo, useState } from 'react';
import { Folder, GripVertical } from 'lucide-react';
import { clsx } from 'clsx';
import { describeError } from '@/lib/i18n/error-text';
import { swapMovies } from '@/hooks/data/movies';
import type { Movie } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { swapsFor } from './playlist-order';
import '@/lib/i18n/messages/cinema';

export interface MovieReorderProps {
  roomId: string;
  /** The rows of the shown page, in their order. */
  movies: Movie[];
}

export function MovieReorder({ roomId, movies }: MovieReorderProps) {
  const t = useT();
  // The order as moved here; it follows the server's list again when that changes.
  const [order, setOrder] = useState<Movie[]>(movies);
  const [source, setSource] = useState(movies);
  if (source !== movies) {
    setSource(movies);
    setOrder(movies);
  }
  const [saving, setSaving] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const byId = useMemo(() => new Map(order.map((movie) => [movie.id, movie])), [order]);
  const name = (id: string | number) => byId.get(String(id))?.base.name ?? '';
  const position = (id: string | number) => order.findIndex((movie) => movie.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `${name(active.id)}: ${position(active.id)} / ${order.length}`,
    onDragOver: ({ active, over }) => (over ? `${name(active.id)}: ${position(over.id)} / ${order.length}` : undefined),
    onDragEnd: ({ active, over }) => (over ? `${name(active.id)}: ${position(over.id)} / ${order.length}` : undefined),
    onDragCancel: ({ active }) => name(active.id),
  };

  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id || saving) return;
    const from = order.findIndex((movie) => movie.id === active.id);
    const to = order.findIndex((movie) => movie.id === over.id);
    const before = order;
    setOrder(arrayMove(order, from, to));
    setSaving(true);
    try {
      for (const [a, b] of swapsFor(before.map((movie) => movie.id), from, to)) await swapMovies(roomId, a, b);
    } catch (error) {
      setOrder(before);
      notifyError(new Error(t('cinema.movies.reorderFailed', { error: describeError(error).message })));
    } finally {
      setSaving(false);
    }
  };

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={(event) => void onDragEnd(event)} accessibility={{ announcements }}>
      <SortableContext items={order.map((movie) => movie.id)} strategy={verticalListSortingStrategy}>
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" data-testid="movie-reorder" aria-busy={saving}>
          {order.map((movie) => (
            <SortableRow key={movie.id} movie={movie} label={t('cinema.movies.dragHandle', { name: movie.base.name })} />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({ movie, label }: { movie: Movie; label: string }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: movie.id });
  return (
    <li
      ref={setNodeRef}
      data-testid="movie-reorder-item"
      data-movie-id={movie.id}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={clsx('flex items-center gap-2 bg-white px-2 py-2 dark:bg-zinc-900', isDragging && 'relative z-10 shadow-lg')}
    >
      <button
        ref={setActivatorNodeRef}
        type="button"
        aria-label={label}
        data-testid="movie-drag-handle"
        className="inline-flex h-10 w-10 shrink-0 cursor-grab touch-none items-center justify-center rounded-lg text-zinc-500 hover:bg-zinc-100 active:cursor-grabbing dark:hover:bg-zinc-800"
        {...attributes}
        {...listeners}
      >
        <GripVertical className="h-5 w-5" aria-hidden />
      </button>
      {movie.base.isFolder ? <Folder className="h-4 w-4 shrink-0 text-amber-500" aria-hidden /> : null}
      <span className="min-w-0 flex-1 truncate text-sm font-medium">{movie.base.name}</span>
    </li>
  );
}
