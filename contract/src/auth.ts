import { type Static, Type } from 'typebox';
import { Ok } from './common.ts';
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_PATTERN } from './constants.ts';
import { endpoint } from './endpoint.ts';

/** Public: the per-install key the console encrypts the login password with (spec §7). */
export const LoginKey = Type.Object({
  /** base64 of 32 bytes */
  key: Type.String(),
  algorithm: Type.Literal('AES-256-CBC'),
});
export type LoginKey = Static<typeof LoginKey>;

/** username: base64 of the UTF-8 name; password: base64(iv[16] ‖ AES-256-CBC/PKCS#7 ciphertext). */
export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 512 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const TokenPair = Type.Object({
  token: Type.String(),
  refreshToken: Type.String(),
});
export type TokenPair = Static<typeof TokenPair>;

export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1 }) });
export type RefreshBody = Static<typeof RefreshBody>;

export const MeQuery = Type.Object({ token: Type.Optional(Type.String()) });

export const UserSetting = Type.Record(Type.String(), Type.Unknown());

export const Me = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar: Type.String(),
  introduction: Type.String(),
  /** The level role ('admin' | 'editor') followed by the codes of the roles the user holds. */
  roles: Type.Array(Type.String()),
  /**
   * Console route paths the user's roles grant (a granted parent route includes its children).
   * Admins pass every check whatever this holds (spec §6).
   */
  routes: Type.Array(Type.String()),
  userLevel: Type.Union([Type.Integer(), Type.Null()]),
  setting: UserSetting,
  /**
   * The plant's IANA time zone (PLANT_TIMEZONE): the console reads dates, periods and their
   * labels on this calendar, as the server's buckets do, whatever the browser's zone.
   */
  timeZone: Type.String(),
});
export type Me = Static<typeof Me>;

/** Decoded claims of an access or refresh token; the console reads only `exp`. */
export interface TokenClaims {
  sub: string;
  exp: number;
  typ: 'access' | 'refresh';
}

/**
 * Self-service password change (any logged-in user): the current password proves it is them,
 * the new one follows the password rule of spec §5. Plain text like the admin's password reset:
 * HTTPS protects it (docs/auth.md).
 */
export const PasswordChange = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: 128 }),
  newPassword: Type.String({
    pattern: PASSWORD_PATTERN.source,
    minLength: PASSWORD_MIN,
    maxLength: PASSWORD_MAX,
  }),
});
export type PasswordChange = Static<typeof PasswordChange>;

// ---- endpoints: /api/auth (spec §7) -------------------------------------------------------------

const tags = ['auth'];

export const authLoginKey = endpoint({
  method: 'GET',
  path: '/api/auth/login-key',
  response: LoginKey,
  tags,
  summary: 'Key the console encrypts the login password with',
});

/** Spec §7: the console uses the login response as-is, so it is the one unwrapped answer. */
export const authLogin = endpoint({
  method: 'POST',
  path: '/api/auth/login',
  body: LoginBody,
  response: TokenPair,
  raw: true,
  tags,
  summary: 'Log in; returns the token pair unwrapped (not inside `data`)',
  description:
    'username: base64 of the UTF-8 name (trimmed). password: base64(iv[16] ‖ AES-256-CBC/PKCS#7 ciphertext) with the key from /api/auth/login-key.',
});

export const authMe = endpoint({
  method: 'GET',
  path: '/api/auth/me',
  querystring: MeQuery,
  response: Me,
  tags,
  summary: 'The current user; the access token may also be given as ?token=',
});

export const authRefresh = endpoint({
  method: 'POST',
  path: '/api/auth/token',
  body: RefreshBody,
  response: TokenPair,
  tags,
  summary: 'Exchange a refresh token for a new pair (the old refresh token is spent)',
});

export const authLogout = endpoint({
  method: 'POST',
  path: '/api/auth/logout',
  body: RefreshBody,
  response: Ok,
  tags,
  summary: 'End the session of a refresh token; succeeds even if it is already dead',
});

export const authPasswordChange = endpoint({
  method: 'POST',
  path: '/api/auth/password',
  body: PasswordChange,
  response: Ok,
  tags,
  summary: 'Change your own password; ends your other sessions, this one stays logged in',
  description:
    'A wrong current password is 400 VALIDATION and counts as a failed login for the login throttle (429 + Retry-After while it holds).',
});
