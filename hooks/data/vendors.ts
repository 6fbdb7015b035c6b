'use client';
/**
 * The signed-in user's vendor accounts (docs/vendors.md): the bound AList servers, one server's
 * AList user, a page of an AList folder for the add-movie picker, and binding or unbinding a server
 * (the bound list is read again after each). Every call throws `ApiError` on failure.
 */
import { useMemo } from 'react';
import useSWR from 'swr';
import * as vendor from '@/lib/api/vendor';
import { keys, useRevalidate } from './keys';

/** `GET /api/vendor/alist/binds`, once `enabled`. */
export function useAlistBindings(enabled = true) {
  return useSWR(enabled ? keys.alistBindings() : null, vendor.getAlistBindings);
}

/** The AList user of `serverId` (null: not asked). */
export function useAlistMe(serverId: string | null) {
  return useSWR(serverId ? keys.alistMe(serverId) : null, () => vendor.getAlistMe(serverId ?? ''), { revalidateOnFocus: false });
}

/** A page of an AList folder or search (docs/vendors.md `POST /api/vendor/alist/list`), once `enabled`. */
export function useAlistList(query: { path: string; password: string; keyword: string; page: number; max: number }, enabled: boolean) {
  return useSWR(enabled ? keys.alistList(query) : null, () => vendor.listAlist(query), { keepPreviousData: true, revalidateOnFocus: false });
}

/** Binding and unbinding AList servers. */
export interface VendorActions {
  /** Binds (or signs in again to) the AList at `host`; then the bound list is read again. */
  bindAlist(host: string, username: string, password: string): Promise<void>;
  /** Unbinds a server; then the bound list is read again. */
  unbindAlist(serverId: string): Promise<void>;
}

export function useVendorActions(): VendorActions {
  const revalidate = useRevalidate();
  return useMemo(
    () => ({
      bindAlist: async (host, username, password) => {
        await vendor.bindAlist(host, username, password);
        await revalidate('alist-bindings', 'alist-me', 'alist-list');
      },
      unbindAlist: async (serverId) => {
        await vendor.unbindAlist(serverId);
        await revalidate('alist-bindings', 'alist-me', 'alist-list');
      },
    }),
    [revalidate],
  );
}
