import type { Db } from '../../db/sql.ts';

// Auth logs accounts in and reads the caller's access, but the accounts themselves are the users
// module's (its routes and services use auth's sessions and hashing, so auth must not import it back).
// Auth declares here what it needs; users implements it (`accounts` in users/index.ts) and
// services.ts hands it over.

/** An account as stored: what logging in checks and the caller's profile shows. */
export interface Account {
  id: number;
  username: string;
  passwordHash: string;
  name: string;
  avatar: string;
  introduction: string;
  userLevel: number | null;
  disabled: boolean;
  setting: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** What a user's assignable roles give them: role codes and the route paths those roles grant. */
export interface UserAccess {
  roleCodes: string[];
  paths: string[];
}

export interface Accounts {
  findUserAccess(db: Db, userId: number): Promise<UserAccess>;
  findUserById(db: Db, id: number): Promise<Account | undefined>;
  findUserByUsername(db: Db, username: string): Promise<Account | undefined>;
  findUserWithAccess(
    db: Db,
    userId: number,
    session: string,
  ): Promise<{ user: Account; access: UserAccess; sessionOpen: boolean } | undefined>;
  updatePasswordHash(db: Db, id: number, passwordHash: string, now: string): Promise<void>;
}
