import type { LoginKey, Me, TokenPair } from '@kilowatch/contract';
import { encodeUsername, encryptPassword } from '../../lib/crypto.ts';
import { http, request } from '../../lib/http.ts';
import { useSession } from '../../lib/session.ts';

export const getLoginKey = () => http.get<LoginKey>('/api/auth/login-key', undefined, { anonymous: true });

/** Spec §7: username base64, password AES-encrypted; the answer is used unwrapped. */
export async function login(username: string, password: string): Promise<TokenPair> {
  const { key } = await getLoginKey();
  return request<TokenPair>('/api/auth/login', {
    method: 'POST',
    anonymous: true,
    raw: true,
    data: { username: encodeUsername(username.trim()), password: encryptPassword(password, key) },
  });
}

export const getMe = (token: string) => http.get<Me>('/api/auth/me', { token }, { quiet: true });

/** Revokes the refresh token on the server, then ends the session here whatever it answered. */
export async function logout(): Promise<void> {
  const { refreshToken, clear } = useSession.getState();
  try {
    if (refreshToken) await http.post('/api/auth/logout', { refreshToken }, { anonymous: true, quiet: true });
  } finally {
    clear();
  }
}
