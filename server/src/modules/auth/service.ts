import { randomBytes, randomUUID } from 'node:crypto';
import {
  LAYOUT_ROUTES,
  type LoginKey,
  type Me,
  type RouteDef,
  rolesForUserLevel,
  type TokenPair,
} from '@kilowatch/contract';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { Accounts, Account as User } from './accounts.ts';
import { decodeUsername, decryptPassword, hashPassword, verifyPassword } from './crypto.ts';
import {
  deleteExpiredRefreshTokens,
  findRefreshToken,
  insertRefreshToken,
  markRotated,
  type RefreshTokenRecord,
  replaceSuccessor,
  revokeFamily,
  revokeUserTokens,
} from './repository.ts';
import type { LoginThrottle } from './throttle.ts';
import { TokenError, type Tokens } from './tokens.ts';

/** Who is calling, as routes and the authorization check see it. */
export interface AuthUser {
  id: number;
  username: string;
  roles: string[];
  userLevel: number | null;
  /** Paths of the console routes the user's roles grant (checked against `config.resource`). */
  grants: string[];
  /** The session (refresh-token family) of the access token; set by `authenticate`. */
  session?: string;
}

export interface AuthServiceDeps {
  db: Kysely<DB>;
  tokens: Tokens;
  throttle: LoginThrottle;
  loginKey: Buffer;
  now: () => number;
  /** PLANT_TIMEZONE, told to the console with the current user (Me.timeZone). */
  timeZone: string;
  /** The user accounts, from the users module (`accounts` in modules/users/index.ts). */
  accounts: Accounts;
}

export interface LoginInput {
  /** As sent: base64 of the UTF-8 name. */
  username: string;
  /** As sent: base64(iv ‖ AES-256-CBC ciphertext). */
  password: string;
  ip: string;
}

export type AuthService = ReturnType<typeof createAuthService>;

/** Every route path with the paths below it (itself included). */
const SUBTREES = new Map<string, string[]>();
const collect = (route: RouteDef): string[] => {
  const paths = [route.path, ...(route.children ?? []).flatMap(collect)];
  SUBTREES.set(route.path, paths);
  return paths;
};
LAYOUT_ROUTES.forEach(collect);

/**
 * The route paths a set of granted paths covers: a granted parent route includes its children.
 * @example expandGrants(['/sys_management']) // ['/sys_management', '/sys_management/user', …]
 */
const expandGrants = (paths: readonly string[]): string[] => [
  ...new Set(paths.flatMap((path) => SUBTREES.get(path) ?? [path])),
];

function rolesAndGrants(
  user: User,
  { roleCodes, paths }: { roleCodes: string[]; paths: string[] },
): { roles: string[]; grants: string[] } {
  return {
    roles: [...new Set([...rolesForUserLevel(user.userLevel), ...roleCodes])],
    grants: expandGrants(paths),
  };
}

const refreshInvalid = () => new AppError('REFRESH_INVALID', 401);
/** How long a spent refresh token may still be retried (the console retries within ~2 s). */
export const REUSE_GRACE_MS = 30_000;
const badEncoding = () => new AppError('BAD_REQUEST', 400, {}, { message: 'LOGIN_ENCODING' });

/** A user who may hold a session: enabled and with a user level (spec §4, §6). */
const assertMayLogIn = (user: User, status: number): void => {
  if (user.disabled) throw new AppError('USER_DISABLED', status);
  if (user.userLevel === null) throw new AppError('NO_USER_LEVEL', status);
};

export function createAuthService({
  db,
  tokens,
  throttle,
  loginKey,
  now,
  timeZone,
  accounts,
}: AuthServiceDeps) {
  const { findUserAccess, findUserById, findUserByUsername, findUserWithAccess, updatePasswordHash } =
    accounts;
  const isoNow = () => new Date(now()).toISOString();
  // Unknown names are checked against this too, so the answer takes as long as for a real user.
  const dummyHash = hashPassword(randomBytes(16).toString('hex'));

  async function issuePair(trx: Kysely<DB> | Transaction<DB>, userId: number, jti: string, family: string) {
    const token = await tokens.signAccess(userId, family);
    const refresh = await tokens.signRefresh(userId, jti, family);
    await insertRefreshToken(
      trx,
      { id: jti, userId, family, expiresAt: refresh.expiresAt.toISOString() },
      isoNow(),
    );
    return { token, refreshToken: refresh.token };
  }

  /**
   * A spent refresh token presented again within REUSE_GRACE_MS of its rotation, whose successor
   * nobody has used yet, is the console retrying a refresh whose answer never arrived (a dropped
   * connection, a replica killed while answering): that successor is what to spend. Any other reuse
   * is theft. Okta's rotation grace period and Auth0's reuse interval are the same rule.
   */
  async function retriedRotation(
    trx: Transaction<DB>,
    spent: RefreshTokenRecord,
  ): Promise<string | undefined> {
    if (!spent.replacedBy || spent.revokedAt === null) return undefined;
    if (now() - new Date(spent.revokedAt).getTime() > REUSE_GRACE_MS) return undefined;
    const successor = await findRefreshToken(trx, spent.replacedBy);
    return successor?.revokedAt === null ? successor.id : undefined;
  }

  /** Level role first, then the codes of the roles the user holds; and what those roles grant. */
  async function accessOf(user: User): Promise<{ roles: string[]; grants: string[] }> {
    return rolesAndGrants(user, await findUserAccess(db, user.id));
  }

  /**
   * Access tokens whose signature was checked, with their subject and expiry: the console sends
   * the same token with every request, and the HMAC check (with its key import) is most of an
   * authentication. Only the signature is remembered: expiry is checked again on every request,
   * as the JWT check would (valid while `exp` is after the current second), and the user is read
   * every time.
   */
  const verified = new Map<string, { userId: number; exp: number; sid: string }>();
  const VERIFIED_MAX = 1000;

  async function verifyAccess(accessToken: string): Promise<{ userId: number; sid: string }> {
    const known = verified.get(accessToken);
    if (known) {
      if (known.exp > Math.floor(now() / 1000)) return known;
      verified.delete(accessToken);
      throw new AppError('TOKEN_EXPIRED', 401);
    }
    const claims = await tokens.verifyAccess(accessToken).catch((error: unknown) => {
      throw new AppError(
        error instanceof TokenError && error.reason === 'expired' ? 'TOKEN_EXPIRED' : 'UNAUTHORIZED',
        401,
      );
    });
    if (verified.size >= VERIFIED_MAX) verified.clear();
    verified.set(accessToken, { userId: claims.userId, exp: claims.exp, sid: claims.sid });
    return claims;
  }

  /** Lets a password check go ahead, or answers 429 with how long to wait (docs/auth.md). */
  async function admit(username: string, source: string): Promise<void> {
    const { wait } = await throttle.begin(username, source);
    if (wait === 0) return;
    const [message, params] =
      wait < 60
        ? (['auth.retryInSeconds', { seconds: wait }] as const)
        : ([undefined, { minutes: Math.ceil(wait / 60) }] as const);
    throw new AppError('TOO_MANY_ATTEMPTS', 429, params, {
      ...(message ? { message } : {}),
      headers: { 'retry-after': String(wait) },
    });
  }

  return {
    loginKey: (): LoginKey => ({ key: loginKey.toString('base64'), algorithm: 'AES-256-CBC' }),

    async login({ username: encodedName, password: encrypted, ip }: LoginInput): Promise<TokenPair> {
      const username = decodeUsername(encodedName);
      if (username === undefined) throw badEncoding();
      if (username === '') {
        throw new AppError('VALIDATION', 400, { field: 'username' }, { message: 'validation.required' });
      }
      const password = decryptPassword(encrypted, loginKey);
      if (password === undefined) throw badEncoding();
      await admit(username, ip);

      const user = await findUserByUsername(db, username);
      const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
      if (!user || !valid) {
        await throttle.sweep();
        throw new AppError('INVALID_CREDENTIALS', 401);
      }
      await throttle.succeeded(username, ip);
      // Only someone who knows the password learns that the account is disabled.
      assertMayLogIn(user, 403);
      await deleteExpiredRefreshTokens(db, user.id, isoNow());
      return issuePair(db, user.id, randomUUID(), randomUUID());
    },

    /**
     * Rotates a refresh token: the presented one is spent and a new pair issued in the same
     * family. Presenting a spent token means it was copied, so the whole family is revoked —
     * unless it is the retry of a rotation whose answer was lost (`retriedRotation`).
     */
    async refresh(refreshToken: string): Promise<TokenPair> {
      const claims = await tokens.verifyRefresh(refreshToken).catch(() => {
        throw refreshInvalid();
      });
      const record = await findRefreshToken(db, claims.jti);
      if (!record || record.userId !== claims.userId || record.family !== claims.fam) throw refreshInvalid();
      const user = await findUserById(db, claims.userId);
      if (!user) throw refreshInvalid();
      assertMayLogIn(user, 403);

      const pair = await db.transaction().execute(async (trx) => {
        const next = randomUUID();
        const spend = record.revokedAt === null ? record.id : await retriedRotation(trx, record);
        if (!spend || !(await markRotated(trx, spend, next, isoNow()))) return undefined;
        // A retried token now names the pair its retry received, so a second retry finds it live.
        if (spend !== record.id) await replaceSuccessor(trx, record.id, next);
        return issuePair(trx, user.id, next, record.family);
      });
      if (!pair) {
        await revokeFamily(db, record.family, isoNow());
        throw refreshInvalid();
      }
      return pair;
    },

    /** Ends the session the refresh token belongs to. Always succeeds: a dead token has no session. */
    async logout(refreshToken: string): Promise<void> {
      const claims = await tokens.verifyRefresh(refreshToken).catch(() => undefined);
      if (!claims) return;
      const record = await findRefreshToken(db, claims.jti);
      if (record && record.userId === claims.userId) await revokeFamily(db, record.family, isoNow());
    },

    async me(userId: number): Promise<Me> {
      const user = await findUserById(db, userId);
      if (!user) throw new AppError('UNAUTHORIZED', 401);
      const { roles, grants } = await accessOf(user);
      return {
        id: user.id,
        username: user.username,
        name: user.name,
        avatar: user.avatar,
        introduction: user.introduction,
        roles,
        routes: grants,
        userLevel: user.userLevel,
        setting: user.setting,
        timeZone,
      };
    },

    /**
     * The caller behind an access token: THE check of a request, also re-run on open streams.
     * 401 for anything that should end the console's session: a bad or expired token, a session
     * ended by logout, password change or reset, or a user since removed, disabled or left
     * without a level. One query reads the user, their grants and whether the session is open.
     */
    async authenticate(accessToken: string): Promise<AuthUser> {
      const claims = await verifyAccess(accessToken);
      const found = await findUserWithAccess(db, claims.userId, claims.sid);
      if (!found) throw new AppError('UNAUTHORIZED', 401);
      const { user, access, sessionOpen } = found;
      assertMayLogIn(user, 401);
      if (!sessionOpen) throw new AppError('UNAUTHORIZED', 401);
      return {
        id: user.id,
        username: user.username,
        userLevel: user.userLevel,
        ...rolesAndGrants(user, access),
        session: claims.sid,
      };
    },

    /**
     * The caller changes their own password. The current one is checked like a login (and
     * throttled alike); on success every other session of the user ends, the caller's stays.
     */
    async changePassword(
      caller: AuthUser,
      { currentPassword, newPassword, ip }: { currentPassword: string; newPassword: string; ip: string },
    ): Promise<void> {
      await admit(caller.username, ip);
      const user = await findUserById(db, caller.id);
      if (!user || !(await verifyPassword(user.passwordHash, currentPassword))) {
        await throttle.sweep();
        throw new AppError(
          'VALIDATION',
          400,
          { field: 'currentPassword' },
          { message: 'auth.wrongCurrentPassword' },
        );
      }
      await throttle.succeeded(caller.username, ip);
      const passwordHash = await hashPassword(newPassword);
      await db.transaction().execute(async (trx) => {
        await updatePasswordHash(trx, user.id, passwordHash, isoNow());
        await revokeUserTokens(trx, user.id, isoNow(), caller.session);
      });
    },
  };
}
