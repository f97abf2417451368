/**
 * Operator commands on the metadata database (same env as the server: DATA_DIR, DATABASE_URL):
 *   tsx server/src/cli.ts user:add <username> --level 2 [--name 张工] [--password … | env USER_PASSWORD]
 *   tsx server/src/cli.ts user:password <username> [--password … | env USER_PASSWORD]
 * Used to recover a lost admin password and by the end-to-end suite to create its editor.
 */
import { parseArgs } from 'node:util';
import { PASSWORD_PATTERN } from '@kilowatch/contract';
import { ConfigError, loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/index.ts';
import { hashPassword, revokeUserTokens } from './modules/auth/index.ts';
import { findUserByUsername, insertUserIfAbsent, updatePasswordHash } from './modules/users/index.ts';

const USAGE =
  'usage: cli.ts user:add <username> --level N [--name NAME] | user:password <username> (password: --password or USER_PASSWORD)';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { level: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } },
  });
  const [command, username] = positionals;
  const password = values.password ?? process.env.USER_PASSWORD;
  if (!command || !username || !password) {
    console.error(USAGE);
    return 2;
  }
  if (!PASSWORD_PATTERN.test(password)) {
    console.error('The password must be 6 to 20 letters, digits or ?~!,.#&@$%^*');
    return 2;
  }
  const config = loadConfig(process.env);
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db, database.dialect);
    const now = new Date().toISOString();
    if (command === 'user:add') {
      const level = Number(values.level);
      if (!Number.isInteger(level) || level < 1) {
        console.error('--level must be 1 (admin) or above (editor)');
        return 2;
      }
      const passwordHash = await hashPassword(password);
      const created = await insertUserIfAbsent(
        database.db,
        { username, passwordHash, name: values.name ?? username, userLevel: level },
        now,
      );
      console.info(
        created
          ? `Created user ${username} (userLevel ${level}).`
          : `User ${username} exists already; left unchanged.`,
      );
      return 0;
    }
    if (command === 'user:password') {
      const user = await findUserByUsername(database.db, username);
      if (!user) {
        console.error(`No user ${username}.`);
        return 1;
      }
      const passwordHash = await hashPassword(password);
      await database.db.transaction().execute(async (trx) => {
        await updatePasswordHash(trx, user.id, passwordHash, now);
        await revokeUserTokens(trx, user.id, now);
      });
      console.info(`Password of ${username} changed; their sessions were ended.`);
      return 0;
    }
    console.error(USAGE);
    return 2;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
