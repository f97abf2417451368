import type { Selectable } from 'kysely';
import type { RefreshTokensTable } from '../../db/index.ts';
import type { Db } from '../../db/sql.ts';

export interface RefreshTokenRecord {
  id: string;
  userId: number;
  family: string;
  expiresAt: string;
  revokedAt: string | null;
  replacedBy: string | null;
}

const toRecord = (row: Selectable<RefreshTokensTable>): RefreshTokenRecord => ({
  id: row.id,
  userId: row.user_id,
  family: row.family,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  replacedBy: row.replaced_by,
});

export async function insertRefreshToken(
  db: Db,
  token: { id: string; userId: number; family: string; expiresAt: string },
  now: string,
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      id: token.id,
      user_id: token.userId,
      family: token.family,
      expires_at: token.expiresAt,
      created_at: now,
    })
    .execute();
}

export async function findRefreshToken(db: Db, id: string): Promise<RefreshTokenRecord | undefined> {
  const row = await db.selectFrom('refresh_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

/**
 * Marks a live token as used and names its successor. False when it was no longer live, i.e.
 * another request rotated or revoked it first; the condition makes the check-and-set atomic.
 */
export async function markRotated(db: Db, id: string, replacedBy: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now, replaced_by: replacedBy })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Points a spent token at a later successor (a retried rotation: auth service `refresh`). */
export async function replaceSuccessor(db: Db, id: string, replacedBy: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ replaced_by: replacedBy }).where('id', '=', id).execute();
}

export async function revokeFamily(db: Db, family: string, now: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('family', '=', family)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Housekeeping: expired rows can no longer be used, so they only take space. */
export async function deleteExpiredRefreshTokens(db: Db, userId: number, now: string): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('user_id', '=', userId).where('expires_at', '<', now).execute();
}

/**
 * Ends every session of a user (password reset, disable, delete), except `keep` (the caller's
 * own session when they change their password). Their access tokens stop working at once.
 */
export async function revokeUserTokens(db: Db, userId: number, now: string, keep?: string): Promise<void> {
  let query = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keep !== undefined) query = query.where('family', '!=', keep);
  await query.execute();
}
