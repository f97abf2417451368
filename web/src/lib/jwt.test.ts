import { describe, expect, it } from 'vitest';
import { isTokenExpired, tokenExp } from './jwt.ts';

const b64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (payload: Record<string, unknown>) =>
  `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.sig`;

const NOW = 1_700_000_000_000;

describe('tokenExp', () => {
  it('reads exp from an unpadded base64url payload', () => {
    // Payloads of every length modulo 3, so each padding case is exercised.
    for (const sub of ['a', 'ab', 'abc']) {
      expect(tokenExp(jwt({ sub, exp: 1234567890 }))).toBe(1234567890);
    }
  });

  it('reads a payload whose base64url form holds - and _', () => {
    const token = jwt({ sub: '??>>??~~', exp: 42 });
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(tokenExp(token)).toBe(42);
  });

  it('returns null for unreadable tokens', () => {
    expect(tokenExp(null)).toBeNull();
    expect(tokenExp(undefined)).toBeNull();
    expect(tokenExp('')).toBeNull();
    expect(tokenExp('no-dots')).toBeNull();
    expect(tokenExp('a.!!!notbase64!!!.c')).toBeNull();
    expect(tokenExp(`x.${b64url({ sub: 'no exp' })}.y`)).toBeNull();
    expect(tokenExp(`x.${b64url({ exp: '123' })}.y`)).toBeNull();
  });
});

describe('isTokenExpired (2-second threshold)', () => {
  const expIn = (ms: number) => jwt({ exp: (NOW + ms) / 1000 });

  it('is not expired with exactly 2000 ms left', () => {
    expect(isTokenExpired(expIn(2000), NOW)).toBe(false);
  });

  it('is expired with 1999 ms left (under 2 seconds)', () => {
    expect(isTokenExpired(expIn(1999), NOW)).toBe(true);
  });

  it('is expired at and after exp', () => {
    expect(isTokenExpired(expIn(0), NOW)).toBe(true);
    expect(isTokenExpired(expIn(-60_000), NOW)).toBe(true);
  });

  it('is valid well before exp', () => {
    expect(isTokenExpired(expIn(3600_000), NOW)).toBe(false);
  });

  it('uses the current time by default', () => {
    const now = Date.now();
    expect(isTokenExpired(jwt({ exp: Math.floor(now / 1000) + 3600 }))).toBe(false);
    expect(isTokenExpired(jwt({ exp: Math.floor(now / 1000) - 1 }))).toBe(true);
  });

  it('treats an unreadable or missing token as expired', () => {
    expect(isTokenExpired('garbage', NOW)).toBe(true);
    expect(isTokenExpired(null, NOW)).toBe(true);
    expect(isTokenExpired(undefined, NOW)).toBe(true);
    expect(isTokenExpired(`x.${b64url({ sub: 'u' })}.y`, NOW)).toBe(true);
  });
});
