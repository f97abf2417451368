import { TOKEN_EXPIRY_THRESHOLD_S } from '@kilowatch/contract';

/** Reads `exp` (seconds) from a JWT without verifying it; null when unreadable. */
export function tokenExp(token: string | null | undefined): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

/** Spec §4: a token counts as expired when under 2 seconds remain (or it cannot be read). */
export function isTokenExpired(token: string | null | undefined, nowMs = Date.now()): boolean {
  const exp = tokenExp(token);
  return exp === null || exp * 1000 - nowMs < TOKEN_EXPIRY_THRESHOLD_S * 1000;
}
