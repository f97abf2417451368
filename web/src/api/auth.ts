import {
  authLogin,
  authLoginKey,
  authLogout,
  authMe,
  authPasswordChange,
  type Me,
  type PasswordChange,
  type TokenPair,
} from '@kilowatch/contract';
import { call } from '../lib/call.ts';
import { encodeUsername, encryptPassword } from '../lib/crypto.ts';
import { currentAccessToken } from '../lib/http.ts';
import { useSession } from '../lib/session.ts';

const getLoginKey = () => call(authLoginKey, { anonymous: true });

/** Spec §7: username base64, password AES-encrypted; the answer is used unwrapped. */
export async function login(username: string, password: string): Promise<TokenPair> {
  const { key } = await getLoginKey();
  return call(authLogin, {
    anonymous: true,
    body: { username: encodeUsername(username.trim()), password: encryptPassword(password, key) },
  });
}

/**
 * Spec §7: the token also goes in the query. It is the current one, refreshed first when the
 * stored one has expired (a reload after a pause), never the stale one read before the refresh.
 */
export async function getMe(signal?: AbortSignal): Promise<Me> {
  const token = await currentAccessToken();
  return call(authMe, { query: { token: token ?? undefined }, quiet: true, signal });
}

/** Revokes the refresh token on the server, then ends the session here whatever it answered. */
export async function logout(): Promise<void> {
  const { refreshToken, clear } = useSession.getState();
  try {
    if (refreshToken) await call(authLogout, { body: { refreshToken }, anonymous: true, quiet: true });
  } finally {
    clear();
  }
}

/**
 * Changes the caller's own password (POST /api/auth/password). The server ends the user's other
 * sessions and keeps this one; the caller shows the errors (a wrong current password is a 400).
 */
export const changePassword = (body: PasswordChange) => call(authPasswordChange, { body, quiet: true });
