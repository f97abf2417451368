import type { TokenClaims } from '@kilowatch/contract';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface AccessClaims extends TokenClaims {
  typ: 'access';
  /** The session (refresh-token family) it was issued in: ending the session ends the token. */
  sid: string;
}

export interface RefreshClaims extends TokenClaims {
  typ: 'refresh';
  jti: string;
  /** The token family: one per login, shared by every rotation of it. */
  fam: string;
}

/** Why a token was refused: the console tells an expired session from a bad token. */
export class TokenError extends Error {
  override name = 'TokenError';
  constructor(readonly reason: 'expired' | 'invalid') {
    super(`token ${reason}`);
  }
}

export interface TokenOptions {
  secret: string;
  /** Seconds. */
  accessTtl: number;
  /** Seconds. */
  refreshTtl: number;
  /** Milliseconds since the epoch; injected so tests can move time. */
  now: () => number;
}

export type Tokens = ReturnType<typeof createTokens>;

/** Signs and checks the HS256 access and refresh JWTs. */
export function createTokens({ secret, accessTtl, refreshTtl, now }: TokenOptions) {
  const key = new TextEncoder().encode(secret);
  const seconds = () => Math.floor(now() / 1000);

  const sign = (claims: Record<string, string>, userId: number, ttl: number) => {
    const iat = seconds();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttl)
      .sign(key);
  };

  async function verify(token: string): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        currentDate: new Date(now()),
        requiredClaims: ['sub', 'exp', 'typ'],
      });
      return payload;
    } catch (error) {
      throw new TokenError(error instanceof errors.JWTExpired ? 'expired' : 'invalid');
    }
  }

  const userIdOf = (payload: Record<string, unknown>): number => {
    const id = Number(payload.sub);
    if (!Number.isSafeInteger(id) || id < 1) throw new TokenError('invalid');
    return id;
  };

  return {
    signAccess: (userId: number, session: string): Promise<string> =>
      sign({ typ: 'access', sid: session }, userId, accessTtl),

    /** A refresh token for the given jti and family, with the instant it expires. */
    async signRefresh(userId: number, jti: string, fam: string): Promise<{ token: string; expiresAt: Date }> {
      const token = await sign({ typ: 'refresh', jti, fam }, userId, refreshTtl);
      return { token, expiresAt: new Date((seconds() + refreshTtl) * 1000) };
    },

    /** Throws TokenError unless `token` is a valid, unexpired access token. */
    async verifyAccess(token: string): Promise<AccessClaims & { userId: number }> {
      const payload = await verify(token);
      // Tokens from before sessions were checked carry no sid; the console refreshes them.
      if (payload.typ !== 'access' || typeof payload.sid !== 'string') throw new TokenError('invalid');
      return {
        sub: String(payload.sub),
        exp: Number(payload.exp),
        typ: 'access',
        sid: payload.sid,
        userId: userIdOf(payload),
      };
    },

    /** Throws TokenError unless `token` is a valid, unexpired refresh token. */
    async verifyRefresh(token: string): Promise<RefreshClaims & { userId: number }> {
      const payload = await verify(token);
      if (payload.typ !== 'refresh' || typeof payload.jti !== 'string' || typeof payload.fam !== 'string') {
        throw new TokenError('invalid');
      }
      return {
        sub: String(payload.sub),
        exp: Number(payload.exp),
        typ: 'refresh',
        jti: payload.jti,
        fam: payload.fam,
        userId: userIdOf(payload),
      };
    },
  };
}
