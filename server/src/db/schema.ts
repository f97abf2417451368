import type { Generated } from 'kysely';

/**
 * Table types as stored. Timestamps are ISO-8601 UTC text and booleans integer 0/1 in both
 * dialects, so rows read the same on SQLite and PostgreSQL; repositories map them.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  name: string;
  avatar: string;
  introduction: string;
  /** 1 = admin, above 1 = editor, NULL = may not log in (spec §4). */
  user_level: number | null;
  disabled: number;
  /** JSON object text. */
  setting: string;
  created_at: string;
  updated_at: string;
}

export interface RefreshTokensTable {
  /** The token's `jti`. */
  id: string;
  user_id: number;
  /** Every token rotated from one login shares a family, so a replayed one can revoke them all. */
  family: string;
  expires_at: string;
  revoked_at: string | null;
  /** The jti of the token issued when this one was rotated. */
  replaced_by: string | null;
  created_at: string;
}

export interface DB {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
}
