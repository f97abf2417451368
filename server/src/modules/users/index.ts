import type { Accounts } from '../auth/index.ts';
import {
  findUserAccess,
  findUserById,
  findUserByUsername,
  findUserWithAccess,
  updatePasswordHash,
} from './repository.ts';

export { ensureAdmin, type FirstStartAdmin, firstStartBanner } from './first-admin.ts';
export { findUserByUsername, insertUserIfAbsent, updatePasswordHash } from './repository.ts';
export { userRoutes } from './routes.ts';
export { createUserAdminService } from './service.ts';

/**
 * What the auth module reads and writes of accounts (logging in, the caller's access, a changed
 * password), handed to it by services.ts: this module's routes and services use auth's sessions
 * and password hashing, so auth must not import it.
 */
export const accounts: Accounts = {
  findUserAccess,
  findUserById,
  findUserByUsername,
  findUserWithAccess,
  updatePasswordHash,
};
