// Counts evaluations of the nprogress module, i.e. whether the app has downloaded it yet.
let mockNProgressLoads = 0;
jest.mock('nprogress', () => {
  mockNProgressLoads += 1;
  return jest.requireActual('nprogress');
});

type RouteProgress = typeof import('./route-progress');
// Required after the mock above so that an eager import of nprogress would be counted.
const { isSameLocation, locationKey } = require('./route-progress') as RouteProgress;

const here = 'http://localhost/web/rooms/?page=2';

describe('route progress: same-location detection', () => {
  it('reduces router paths and absolute /web URLs to one key', () => {
    expect(locationKey('/cinema/abc', here)).toBe('/cinema/abc');
    expect(locationKey('http://localhost/web/cinema/abc/', here)).toBe('/cinema/abc');
    expect(locationKey('http://localhost/web/', here)).toBe('/');
    expect(locationKey('/', here)).toBe('/');
  });

  it('treats a link to the current page as no navigation (it would never finish the bar)', () => {
    expect(isSameLocation('/rooms?page=2', here)).toBe(true);
    expect(isSameLocation('http://localhost/web/rooms/?page=2', here)).toBe(true);
  });

  it('sees other paths and other queries as navigations', () => {
    expect(isSameLocation('/rooms', here)).toBe(false);
    expect(isSameLocation('/rooms?page=3', here)).toBe(false);
    expect(isSameLocation('/search', here)).toBe(false);
  });
});

describe('route progress: the bar', () => {
  type NProgressApi = typeof import('nprogress');
  let progress: RouteProgress;
  const nprogress = () => require('nprogress') as NProgressApi;
  const bar = () => document.getElementById('nprogress');
  /** Lets the dynamic import of nprogress settle. */
  const settle = () => jest.advanceTimersByTimeAsync(0);

  beforeEach(() => {
    jest.useFakeTimers();
    jest.resetModules();
    mockNProgressLoads = 0;
    progress = require('./route-progress') as RouteProgress;
  });

  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
    document.body.innerHTML = '';
  });

  it('does not load nprogress at startup, only when a navigation starts, and then shows the bar', async () => {
    // `progress` was required afresh in beforeEach, after the counter was reset.
    expect(mockNProgressLoads).toBe(0);
    progress.startRouteProgress('/rooms');
    await settle();
    expect(mockNProgressLoads).toBe(1);
    expect(nprogress().isStarted()).toBe(true);
    expect(bar()).not.toBeNull();
    expect(nprogress().settings).toMatchObject({ minimum: 0.2, showSpinner: false });

    progress.finishRouteProgress();
    expect(nprogress().isStarted()).toBe(false);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(bar()).toBeNull();
  });

  it('shows no bar when the navigation finished before nprogress arrived', async () => {
    progress.startRouteProgress('/rooms');
    progress.finishRouteProgress();
    await settle();
    expect(mockNProgressLoads).toBe(1);
    expect(nprogress().isStarted()).toBe(false);
    expect(bar()).toBeNull();
  });

  it('starts the bar at once on later navigations', async () => {
    progress.startRouteProgress('/rooms');
    await settle();
    progress.finishRouteProgress();
    progress.startRouteProgress('/search');
    expect(nprogress().isStarted()).toBe(true);
    expect(mockNProgressLoads).toBe(1);
  });

  it('neither loads nor starts anything for a link to the current page', async () => {
    progress.startRouteProgress(window.location.href);
    await settle();
    expect(mockNProgressLoads).toBe(0);
    expect(progress.takePendingNavigation()).toBeNull();
  });

  it('stops a bar whose navigation never commits after 10 s', async () => {
    progress.startRouteProgress('/rooms', 'replace');
    await settle();
    await jest.advanceTimersByTimeAsync(9_000);
    expect(nprogress().isStarted()).toBe(true);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(nprogress().isStarted()).toBe(false);
    expect(progress.takePendingNavigation()).toBe('replace');
  });
});
