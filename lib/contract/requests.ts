/**
 * The contract's JSON request bodies as zod schemas (docs/contract.md §4), decoded the way SyncTV's
 * Go server (gin's JSON binding) decodes them: unknown keys are ignored, a missing or null field is
 * its zero value ("" / false / 0 / absent), and a field of the wrong JSON type is refused with
 * `json: cannot unmarshal <kind> into field <key> of type <Go type>` (400, docs/contract.md §2.1).
 * The companion server decodes every body with them (server/decode.ts); each schema's output type
 * (same name) is the body the client's API functions send. Range and format rules (name
 * lengths, permission bits …) are not here: they are the rules' business (./validation.ts).
 */
import { z } from 'zod/mini';

/** The JSON kind of a value, as gin names it in its errors. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** What a refused field carries in its zod issue's `params`, for `requestErrorText`. */
interface MismatchParams {
  /** The Go type the field has on the server (`string`, `bool`, `uint32`, …). */
  goType: string;
  /** The JSON kind that came instead. */
  kind: string;
  /** A fixed text instead of the usual one (kept from older answers of this server). */
  text?: string;
}

/** A decoder of one field: any JSON value in, `T` out (or an issue). */
export type Field<T> = z.ZodMiniType<T, unknown>;

/**
 * A field that is `zero` when missing or null (unless `refuseNull`), the value when `accepts` it,
 * else a mismatch issue naming `goType` (or the fixed `text`).
 */
function field<T>(goType: string, zero: T, accepts: (value: unknown) => boolean, text?: string, refuseNull = false): Field<T> {
  const decode = z.pipe(
    z.unknown(),
    z.transform((value: unknown, context): T => {
      if (value === undefined || (value === null && !refuseNull)) return zero;
      if (accepts(value)) return value as T;
      const params: MismatchParams = { goType, kind: jsonKind(value), ...(text ? { text } : {}) };
      context.issues.push({ code: 'custom', message: 'mismatch', input: value, params });
      return z.NEVER;
    }),
  );
  // A missing key never reaches the transform: the default stands in for it.
  return z._default(decode, zero as never) as unknown as Field<T>;
}

/** `first`, then `then` on its output (zod's pipe, with the loose input types of JSON decoding). */
function then<T>(first: Field<unknown>, next: z.ZodMiniType<T>): Field<T> {
  return z.pipe(first, next as z.ZodMiniType<T, unknown>) as unknown as Field<T>;
}

/** `schema`, or undefined for a missing key. */
function optional<T>(schema: Field<T>): Field<T | undefined> {
  return z.optional(schema) as unknown as Field<T | undefined>;
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
const anObject = (text?: string) => field<object | undefined>('object', undefined, isObject, text);

/** A string; "" when missing or null. */
export const ginString = (): Field<string> => field('string', '', (value) => typeof value === 'string');
/** A boolean; false when missing or null. */
export const ginBool = (): Field<boolean> => field('bool', false, (value) => typeof value === 'boolean');
/** An unsigned 32-bit integer (a permission mask, a role); 0 when missing or null. */
export const ginUint32 = (): Field<number> =>
  field('uint32', 0, (value) => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff);
/** An unsigned 64-bit integer as JSON numbers carry it exactly (a bilibili cid or episode id, up to 2^53); 0 when missing or null. */
export const ginUint64 = (): Field<number> => field('uint64', 0, (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);
/** An array of strings; [] when missing or null. */
export const ginStringArray = (): Field<string[]> => then(field<unknown[]>('[]string', [], Array.isArray), z.array(ginString()));

/** A nested object with `shape`; absent when missing or null. */
export function ginObject<Shape extends z.core.$ZodLooseShape>(shape: Shape, text?: string): Field<z.output<z.ZodMiniObject<Shape>> | undefined> {
  return optional(then(anObject(text), z.optional(z.object(shape))));
}

/** An object of strings (e.g. HTTP headers); absent when missing or null. */
export function ginStringMap(): Field<Record<string, string> | undefined> {
  return optional(then(anObject(), z.optional(z.record(z.string(), ginString()))));
}

/** An object of objects with `shape` (e.g. subtitles by name); null entries are left out. */
export function ginObjectMap<Shape extends z.core.$ZodLooseShape>(shape: Shape): Field<Record<string, z.output<z.ZodMiniObject<Shape>>> | undefined> {
  return optional(then(anObject(), z.optional(z.record(z.string(), ginObject(shape))))) as Field<Record<string, z.output<z.ZodMiniObject<Shape>>> | undefined>;
}

/** An array of objects with `shape`; absent when missing or null. `text` replaces the usual errors. */
export function ginObjectArray<Shape extends z.core.$ZodLooseShape>(shape: Shape, text: { array: string; item: string }): Field<z.output<z.ZodMiniObject<Shape>>[] | undefined> {
  const item = then(field<object>('object', {}, isObject, text.item, true), z.object(shape));
  return optional(then(field<unknown[] | undefined>('array', undefined, Array.isArray, text.array), z.optional(z.array(item))));
}

/**
 * The text to answer for a refused body: the first issue, as gin words it. Falls back to a generic
 * `json: cannot unmarshal` text for an issue this module did not raise.
 */
export function requestErrorText(issues: readonly z.core.$ZodIssue[]): string {
  const issue = issues[0];
  const params = (issue as { params?: Partial<MismatchParams> } | undefined)?.params;
  if (params?.text) return params.text;
  // The last key that is not an array index: an array item's problem is its array field's.
  const key = issue?.path.findLast((part) => typeof part === 'string');
  if (params?.goType && key !== undefined) return `json: cannot unmarshal ${params.kind} into field ${String(key)} of type ${params.goType}`;
  return 'json: cannot unmarshal into the request';
}

// ---------------------------------------------------------------------------------------------
// Bodies by route (docs/contract.md §4)

/** `{id}`: the user, room or member an action is about. */
export const IdRequest = z.object({ id: ginString() });
export type IdRequest = z.output<typeof IdRequest>;

/** `POST /api/user/signup` and `/api/user/login` (login also takes `email` instead of `username`). */
export const CredentialsRequest = z.object({ username: ginString(), email: ginString(), password: ginString() });
export type CredentialsRequest = z.output<typeof CredentialsRequest>;

/** `POST /api/user/username`. */
export const UsernameRequest = z.object({ username: ginString() });
export type UsernameRequest = z.output<typeof UsernameRequest>;

/** `POST /api/user/password`, `/api/room/pwd/check`, `/api/room/admin/pwd`. */
export const PasswordRequest = z.object({ password: ginString() });
export type PasswordRequest = z.output<typeof PasswordRequest>;

/** `POST /api/user/{signup,retrieve,bind}/email/captcha`: send a code after the image captcha. */
export const EmailCodeRequest = z.object({ email: ginString(), captchaId: ginString(), answer: ginString() });
export type EmailCodeRequest = z.output<typeof EmailCodeRequest>;

/** `POST /api/user/signup/email`, `/api/user/retrieve/email` (`captcha` is the mailed code), `/api/user/bind/email` (no password). */
export const EmailRequest = z.object({ email: ginString(), captcha: ginString(), password: ginString() });
export type EmailRequest = z.output<typeof EmailRequest>;

/** `POST /oauth2/login/:type`, `/oauth2/bind/:type` (the body may be absent). */
export const OAuth2StartRequest = z.object({ redirect: ginString() });
export type OAuth2StartRequest = z.output<typeof OAuth2StartRequest>;

/** `POST /oauth2/callback/:type`. */
export const OAuth2CallbackRequest = z.object({ code: ginString(), state: ginString() });
export type OAuth2CallbackRequest = z.output<typeof OAuth2CallbackRequest>;

/** `POST /api/room/create`. */
export const CreateRoomRequest = z.object({ roomName: ginString(), password: ginString(), settings: ginObject({ hidden: ginBool() }) });
export type CreateRoomRequest = z.output<typeof CreateRoomRequest>;

/** `POST /api/room/login`. */
export const RoomLoginRequest = z.object({ roomId: ginString(), password: ginString() });
export type RoomLoginRequest = z.output<typeof RoomLoginRequest>;

/** `POST /api/room/movie/current`. */
export const SetCurrentRequest = z.object({ id: ginString(), subPath: ginString() });
export type SetCurrentRequest = z.output<typeof SetCurrentRequest>;

/** MovieBase (docs/contract.md §7.1): `push`, each item of `pushs`, and `edit` (with `id`). */
export const MovieBaseRequest = z.object({
  url: ginString(),
  name: ginString(),
  type: ginString(),
  live: ginBool(),
  proxy: ginBool(),
  convert: ginBool(),
  rtmpSource: ginBool(),
  headers: ginStringMap(),
  subtitles: ginObjectMap({ url: ginString(), type: ginString() }),
  moreSources: ginObjectArray(
    { name: ginString(), type: ginString(), url: ginString() },
    { array: 'json: cannot unmarshal into field moreSources of type array', item: 'json: cannot unmarshal into field moreSources of type object' },
  ),
  danmu: ginString(),
  streamDanmu: ginString(),
  isFolder: ginBool(),
  parentId: ginString(),
  vendorInfo: ginObject({
    vendor: ginString(),
    backend: ginString(),
    alist: ginObject({ path: ginString(), password: ginString() }),
    emby: ginObject({ path: ginString(), transcode: ginBool() }),
    bilibili: ginObject({ bvid: ginString(), cid: ginUint64(), epid: ginUint64(), quality: ginUint64(), shared: ginBool() }),
  }),
});
export type MovieBaseRequest = z.output<typeof MovieBaseRequest>;

/** `POST /api/vendor/alist/login` (docs/vendors.md): `password`, or `hashedPassword` as the reference client sends it. */
export const AlistLoginRequest = z.object({ host: ginString(), username: ginString(), password: ginString(), hashedPassword: ginString() });
export type AlistLoginRequest = z.output<typeof AlistLoginRequest>;

/** `POST /api/vendor/alist/list` (paging in the query). `path` is `<serverId>/<path>`, "" for the bound servers. */
export const AlistListRequest = z.object({ path: ginString(), password: ginString(), keyword: ginString(), refresh: ginBool() });
export type AlistListRequest = z.output<typeof AlistListRequest>;

/** `POST /api/vendor/bilibili/login/qr` (docs/vendors.md "bilibili"): the QR sign-in's key. */
export const BilibiliQrRequest = z.object({ key: ginString() });
/** `POST /api/vendor/bilibili/login/sms/send`: the Geetest answer and the telephone number. */
export const BilibiliSmsSendRequest = z.object({ token: ginString(), challenge: ginString(), validate: ginString(), telephone: ginString() });
/** `POST /api/vendor/bilibili/login/sms/login`. */
export const BilibiliSmsLoginRequest = z.object({ telephone: ginString(), captchaKey: ginString(), code: ginString() });
/** `POST /api/vendor/bilibili/parse`: a link or id. */
export const BilibiliParseRequest = z.object({ url: ginString() });

/** `POST /api/vendor/emby/login` (docs/vendors.md). */
export const EmbyLoginRequest = z.object({ host: ginString(), username: ginString(), password: ginString() });
export type EmbyLoginRequest = z.output<typeof EmbyLoginRequest>;

/** `POST /api/vendor/emby/list` (paging in the query). `path` is `<serverId>/<itemId>`, "" for the bound servers. */
export const EmbyListRequest = z.object({ path: ginString(), keyword: ginString() });
export type EmbyListRequest = z.output<typeof EmbyListRequest>;

/** `POST /api/vendor/{alist,emby}/logout`. */
export const ServerIdRequest = z.object({ serverId: ginString() });
export type ServerIdRequest = z.output<typeof ServerIdRequest>;

/** `POST /api/room/movie/edit`. */
export const EditMovieRequest = z.extend(MovieBaseRequest, { id: ginString() });
export type EditMovieRequest = z.output<typeof EditMovieRequest>;

/** `POST /api/room/movie/delete`. */
export const DeleteMoviesRequest = z.object({ ids: ginStringArray() });
export type DeleteMoviesRequest = z.output<typeof DeleteMoviesRequest>;

/** `POST /api/room/movie/clear`. */
export const ClearMoviesRequest = z.object({ parentId: ginString() });
export type ClearMoviesRequest = z.output<typeof ClearMoviesRequest>;

/** `POST /api/room/movie/swap`. */
export const SwapMoviesRequest = z.object({ id1: ginString(), id2: ginString() });
export type SwapMoviesRequest = z.output<typeof SwapMoviesRequest>;

/** `POST /api/room/admin/members/member` and `…/member/permissions` (docs/contract.md §4.4). */
export const MemberPermissionsRequest = z.object({ id: ginString(), permissions: ginUint32() });
export type MemberPermissionsRequest = z.output<typeof MemberPermissionsRequest>;

/** `POST /api/room/admin/members/admin` and `…/admin/permissions`. */
export const AdminPermissionsRequest = z.object({ id: ginString(), adminPermissions: ginUint32() });
export type AdminPermissionsRequest = z.output<typeof AdminPermissionsRequest>;

/** `POST /api/room/admin/settings`: the settings sent (docs/contract.md §5.5), each a bool or a uint32 mask as in `defaults`. */
export function roomSettingsPatchRequest(keys: readonly string[], defaults: Readonly<Record<string, unknown>>) {
  return z.object(Object.fromEntries(keys.map((key) => [key, typeof defaults[key] === 'boolean' ? ginBool() : ginUint32()])));
}

/** `POST /api/admin/user/add`. */
export const AddUserRequest = z.object({ username: ginString(), password: ginString(), role: ginUint32() });
export type AddUserRequest = z.output<typeof AddUserRequest>;

/** `POST /api/admin/user/password`, `/api/admin/room/password` (docs/contract.md §4.6). */
export const IdPasswordRequest = z.object({ id: ginString(), password: ginString() });
export type IdPasswordRequest = z.output<typeof IdPasswordRequest>;

/** `POST /api/admin/user/username`. */
export const IdUsernameRequest = z.object({ id: ginString(), username: ginString() });
export type IdUsernameRequest = z.output<typeof IdUsernameRequest>;

/** `POST /api/admin/email/test` ("" = the caller's bound email). */
export const TestMailRequest = z.object({ email: ginString() });
export type TestMailRequest = z.output<typeof TestMailRequest>;

/** A JSON object of any keys (the settings patches, whose keys the rules check one by one). */
export const AnyObjectRequest = z.record(z.string(), z.unknown());
export type AnyObjectRequest = z.output<typeof AnyObjectRequest>;
