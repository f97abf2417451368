export type { Account, Accounts, UserAccess } from './accounts.ts';
export { deriveLoginKey, hashPassword } from './crypto.ts';
export { authenticate, authorize, requestToken } from './hook.ts';
export { revokeUserTokens } from './repository.ts';
export { requireUser } from './request.ts';
export { authRoutes } from './routes.ts';
export { type AuthService, type AuthUser, createAuthService } from './service.ts';
export { createLoginThrottle } from './throttle.ts';
export { createTokens } from './tokens.ts';
