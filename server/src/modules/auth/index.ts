export { deriveLoginKey, hashPassword } from './crypto.ts';
export { revokeUserTokens } from './repository.ts';
export { requireUser } from './request.ts';
export { authRoutes } from './routes.ts';
export { type AuthService, type AuthUser, createAuthService } from './service.ts';
export { createLoginThrottle } from './throttle.ts';
export { createStreamTickets, STREAM_TICKET_TTL_MS, type StreamTickets } from './tickets.ts';
export { createTokens } from './tokens.ts';
