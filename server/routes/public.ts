/**
 * Public routes (docs/contract.md §4.1).
 */
import type { FastifyInstance } from 'fastify';
import type { PublicSettings } from '@/lib/contract/types';
import type { SiteSettings } from '../db';
import { CHAT_HISTORY_SIZE } from '../db/chat';
import { sendData } from '../http/envelope';
import type { ServerContext } from '../http/guards';
import { signupProviders } from '../rules/oauth2';

/**
 * `GET /api/public/settings` from the site settings (§4.1), with the companion server's extensions
 * (PublicSettings); `canConvert`: whether ffmpeg is installed (docs/transcode.md).
 */
export function publicSettings(site: SiteSettings, canConvert: boolean): PublicSettings {
  return {
    passwordDisableSignup: site.disable_user_signup || !site.enable_password_signup,
    emailEnable: site.enable_email,
    emailDisableSignup: site.disable_user_signup || site.email_disable_user_signup,
    emailWhitelistEnabled: site.email_signup_white_list_enable,
    emailWhitelist: site.email_signup_white_list.split(',').filter(Boolean),
    oauth2DisableSignup: site.disable_user_signup || signupProviders(site).length === 0,
    guestEnable: site.enable_guest,
    p2pZone: site.p2p_zone,
    chatHistory: CHAT_HISTORY_SIZE,
    userMaxRoomCount: site.user_max_room_count,
    createRoomDisabled: site.disable_create_room,
    siteAddress: site.host.trim(),
    movieConvert: site.movie_convert && canConvert,
  };
}

export function registerPublicRoutes(app: FastifyInstance, context: ServerContext): void {
  app.get('/api/public/settings', async (_request, reply) =>
    sendData(reply, publicSettings(await context.store.settings.get(), Boolean(await context.converter?.available()))),
  );
}
