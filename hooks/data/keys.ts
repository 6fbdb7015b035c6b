'use client';
/**
 * Every SWR key of the app, in one place (docs/architecture.md "Data layer"). A key is an array whose
 * first item names the resource, so that a write can revalidate all of a resource's cached pages
 * (`useRevalidate`). Queries are keyed by their JSON, so two equal queries share one request.
 */
import { useCallback } from 'react';
import { useSWRConfig } from 'swr';

/** The resources the app caches; the first item of each key. */
export type Resource =
  | 'hot-rooms'
  | 'room-list'
  | 'room-movies'
  | 'publish-key'
  | 'live-status'
  | 'room-members'
  | 'room-settings'
  | 'my-rooms'
  | 'joined-rooms'
  | 'providers'
  | 'oauth2-providers'
  | 'admin-overview'
  | 'admin-staff'
  | 'admin-candidates'
  | 'admin-users'
  | 'admin-rooms'
  | 'admin-user-rooms'
  | 'site-settings'
  | 'vendor-bindings'
  | 'vendor-me'
  | 'vendor-list';

/** SWR keys by resource; each takes what tells one cached answer from another. */
export const keys = {
  hotRooms: (page: number, max: number) => ['hot-rooms', page, max] as const,
  roomList: (query: object) => ['room-list', JSON.stringify(query)] as const,
  movies: (roomId: string, folderId: string, page: number, keyword: string, subPath = '') => ['room-movies', roomId, folderId, page, keyword, subPath] as const,
  publishKey: (roomId: string, movieId: string) => ['publish-key', roomId, movieId] as const,
  liveStatus: (roomId: string, movieId: string) => ['live-status', roomId, movieId] as const,
  members: (roomId: string, asAdmin: boolean, query: object) => ['room-members', roomId, asAdmin, JSON.stringify(query)] as const,
  roomSettings: (roomId: string, asAdmin: boolean) => ['room-settings', roomId, asAdmin] as const,
  myRooms: (query: object) => ['my-rooms', JSON.stringify(query)] as const,
  joinedRooms: (query: object) => ['joined-rooms', JSON.stringify(query)] as const,
  providers: () => ['providers'] as const,
  oauth2Providers: (purpose: 'login' | 'signup') => ['oauth2-providers', purpose] as const,
  adminOverview: () => ['admin-overview'] as const,
  adminStaff: () => ['admin-staff'] as const,
  adminCandidates: (keyword: string) => ['admin-candidates', keyword] as const,
  adminUsers: (query: object) => ['admin-users', JSON.stringify(query)] as const,
  adminRooms: (query: object) => ['admin-rooms', JSON.stringify(query)] as const,
  adminUserRooms: (userId: string, page: number) => ['admin-user-rooms', userId, page] as const,
  siteSettings: (group: string) => ['site-settings', group] as const,
  vendorBindings: (vendor: string) => ['vendor-bindings', vendor] as const,
  vendorMe: (vendor: string, serverId: string) => ['vendor-me', vendor, serverId] as const,
  vendorList: (vendor: string, query: object) => ['vendor-list', vendor, JSON.stringify(query)] as const,
} satisfies Record<string, (...args: never[]) => readonly [Resource, ...unknown[]]>;

/** True when `key` is one of `resources`' keys. */
export function isKeyOf(key: unknown, resources: readonly Resource[]): boolean {
  return Array.isArray(key) && resources.includes(key[0] as Resource);
}

/**
 * A function that reads again every cached answer of the given resources in the nearest SWR cache
 * (the one shown at once, the others when next shown; what is shown stays until the answer comes).
 * The nearest cache matters: the viewing hall has one of its own (components/room/cinema-view.tsx).
 */
export function useRevalidate(): (...resources: Resource[]) => Promise<unknown> {
  const { mutate } = useSWRConfig();
  return useCallback((...resources: Resource[]) => mutate((key) => isKeyOf(key, resources)), [mutate]);
}
