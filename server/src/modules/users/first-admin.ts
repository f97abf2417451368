import { randomInt } from 'node:crypto';
import { PASSWORD_PATTERN } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { hashPassword } from '../auth/index.ts';
import { countUsers, insertUserIfAbsent } from './repository.ts';

const ADMIN_USERNAME = 'admin';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface FirstStartAdmin {
  username: string;
  /** The generated password; undefined when it came from ADMIN_PASSWORD (never echoed). */
  generatedPassword: string | undefined;
}

/** 16 letters and digits, with at least one of each so no password rule can reject it. */
function generatePassword(): string {
  for (;;) {
    const password = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    if (/[A-Za-z]/.test(password) && /\d/.test(password) && PASSWORD_PATTERN.test(password)) return password;
  }
}

/**
 * On the first start (no users at all) creates the admin account, so a newcomer can log in.
 * Returns what to tell the operator, or undefined when users already existed.
 */
export async function ensureAdmin(
  db: Kysely<DB>,
  adminPassword: string | undefined,
  now: Date,
): Promise<FirstStartAdmin | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const password = adminPassword ?? generatePassword();
  const created = await insertUserIfAbsent(
    db,
    { username: ADMIN_USERNAME, passwordHash: await hashPassword(password), name: '管理员', userLevel: 1 },
    now.toISOString(),
  );
  // Another replica starting at the same moment may have created it first; it tells its operator.
  if (!created) return undefined;
  return { username: ADMIN_USERNAME, generatedPassword: adminPassword === undefined ? password : undefined };
}

/** The first-start notice for the terminal. */
export function firstStartBanner({ username, generatedPassword }: FirstStartAdmin): string {
  const lines = [
    'Kilowatch first start:',
    generatedPassword === undefined
      ? `log in as ${username} with the password set in ADMIN_PASSWORD`
      : `log in as ${username} / ${generatedPassword}`,
    'change it after logging in',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = '─'.repeat(width + 2);
  return [`┌${rule}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${rule}┘`].join('\n');
}
