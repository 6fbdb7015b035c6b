'use client';
/**
 * The signed-in user's vendor accounts (docs/vendors.md): the bound AList, Emby and Jellyfin servers and bilibili account,
 * one server's user, a page of a folder for the add-movie picker, and binding or unbinding a server
 * (the vendor's lists are read again after each). Every call throws `ApiError` on failure.
 */
import { useMemo } from 'react';
import useSWR from 'swr';
import * as vendor from '@/lib/api/vendor';
import type { BilibiliQrStatus, BindableVendor } from '@/lib/contract/types';
import { keys, useRevalidate } from './keys';

/** `GET /api/vendor/{vendor}/binds`, once `enabled`. */
export function useVendorBindings(name: BindableVendor, enabled = true) {
  return useSWR(enabled ? keys.vendorBindings(name) : null, () => vendor.getBindings(name));
}

/** The user of `serverId` on `name` (null: not asked). */
export function useVendorMe(name: BindableVendor, serverId: string | null) {
  return useSWR(serverId ? keys.vendorMe(name, serverId) : null, () => vendor.getVendorMe(name, serverId ?? ''), { revalidateOnFocus: false });
}

/** A page of a vendor's folder or search (docs/vendors.md `POST /api/vendor/{vendor}/list`), once `enabled`. */
export function useVendorList(name: BindableVendor, query: { path: string; password: string; keyword: string; page: number; max: number }, enabled: boolean) {
  return useSWR(enabled ? keys.vendorList(name, query) : null, () => vendor.listVendor(name, query), { keepPreviousData: true, revalidateOnFocus: false });
}

/** `GET /api/vendor/bilibili/me`, once `enabled` (docs/vendors.md "bilibili"). */
export function useBilibiliMe(enabled = true) {
  return useSWR(enabled ? keys.vendorMe('bilibili', '') : null, () => vendor.getBilibiliMe(), { revalidateOnFocus: false });
}

/** A new bilibili QR sign-in (docs/vendors.md "bilibili"): the URL its code shows and its key. */
export const newBilibiliQr = vendor.newBilibiliQr;

/** The state of a bilibili QR sign-in; `success` has bound the account, and its state is read again. */
export function useBilibiliQrPoll(): (key: string) => Promise<BilibiliQrStatus> {
  const revalidate = useRevalidate();
  return useMemo(
    () => async (key: string) => {
      const status = await vendor.pollBilibiliQr(key);
      if (status === 'success') await revalidate('vendor-me');
      return status;
    },
    [revalidate],
  );
}

/** What a bilibili link or id names: a video's pages, a series' episodes or a live room. */
export const parseBilibili = vendor.parseBilibili;

/** Unbinds the bilibili account; then its state is read again. */
export function useBilibiliLogout(): () => Promise<void> {
  const revalidate = useRevalidate();
  return useMemo(
    () => async () => {
      await vendor.logoutBilibili();
      await revalidate('vendor-me');
    },
    [revalidate],
  );
}

/** Binding and unbinding vendor servers. */
export interface VendorActions {
  /** Binds (or signs in again to) the server at `host`; then the vendor's lists are read again. */
  bind(name: BindableVendor, host: string, username: string, password: string): Promise<void>;
  /** Unbinds a server; then the vendor's lists are read again. */
  unbind(name: BindableVendor, serverId: string): Promise<void>;
}

export function useVendorActions(): VendorActions {
  const revalidate = useRevalidate();
  return useMemo(
    () => ({
      bind: async (name, host, username, password) => {
        await vendor.bindVendor(name, host, username, password);
        await revalidate('vendor-bindings', 'vendor-me', 'vendor-list');
      },
      unbind: async (name, serverId) => {
        await vendor.unbindVendor(name, serverId);
        await revalidate('vendor-bindings', 'vendor-me', 'vendor-list');
      },
    }),
    [revalidate],
  );
}
