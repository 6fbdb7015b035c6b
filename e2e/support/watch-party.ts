import { expect, type Page } from '@playwright/test';
import type { MovieBase } from '../../lib/contract/types';
import type { Actor, Actors, App } from '../fixtures';
import { CinemaPage } from '../pages/cinema-page';
import { uniqueName } from './api';
import { describe, isPlaying, samplePair } from './playback';
import { pollUntil } from './poll';

/** How close two viewers must be (seconds) to count as watching together (the sync target). */
export const SYNC_TOLERANCE_SEC = 0.1;

/** Two signed-up viewers in one room, both in its hall with the movie loaded. */
export interface WatchParty {
  roomId: string;
  movieId: string;
  a: Actor;
  b: Actor;
  cinemaA: CinemaPage;
  cinemaB: CinemaPage;
}

/**
 * Creates a room owned by A with `movie` pushed and made current (which starts it playing at 0 s),
 * then opens the hall in A's and B's browsers and waits until both are connected and have loaded
 * the movie. `name` prefixes the room's name.
 */
export async function openWatchParty(app: App, actors: Actors, name: string, movie: MovieBase): Promise<WatchParty> {
  const a = await actors.user('owner');
  const b = await actors.user('viewer');
  const roomId = await app.api.createRoom(a.token!, uniqueName(name));
  const movieId = await app.api.pushMovie(a.token!, roomId, movie);
  await app.api.setCurrent(a.token!, roomId, movieId);
  const cinemaA = new CinemaPage(a.page, app.origin);
  const cinemaB = new CinemaPage(b.page, app.origin);
  for (const cinema of [cinemaA, cinemaB]) {
    await cinema.goto(roomId);
    await cinema.waitConnected();
    await cinema.waitMediaLoaded();
  }
  return { roomId, movieId, a, b, cinemaA, cinemaB };
}

/** Waits (up to 15 s) until both players play within SYNC_TOLERANCE_SEC of each other, past `afterSec`. */
export async function expectTogether(a: Page, b: Page, afterSec = 1): Promise<void> {
  const together = await pollUntil(
    () => samplePair(a, b),
    (pair) => isPlaying(pair.a) && isPlaying(pair.b) && Math.abs(pair.driftSec) < SYNC_TOLERANCE_SEC && pair.a.currentTime > afterSec,
    { timeoutMs: 15_000 },
  );
  expect(together.ok, `not playing together: A ${describe(together.last.a)} | B ${describe(together.last.b)}`).toBe(true);
}
