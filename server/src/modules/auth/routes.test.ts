import { PASSWORD_PATTERN } from '@kilowatch/contract';
import { decodeJwt, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  base64,
  bearer,
  buildTestApp,
  createUser,
  dialects,
  encryptPassword,
  login,
  loginRequest,
  type TestApp,
} from '../../../test/helpers.ts';
import { REUSE_GRACE_MS } from './service.ts';

describe.each(dialects())('auth API on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
  });
  afterEach(async () => {
    await t.close();
  });

  describe('login', () => {
    it('returns an access and a refresh token, unwrapped, both with exp', async () => {
      const res = await loginRequest(t.app, 'admin', 'Admin123');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['refreshToken', 'token']);
      const access = decodeJwt(body.token);
      const refresh = decodeJwt(body.refreshToken);
      expect(access).toMatchObject({ typ: 'access', sub: expect.any(String) });
      expect(refresh).toMatchObject({ typ: 'refresh', jti: expect.any(String), fam: expect.any(String) });
      const nowS = t.clock.now() / 1000;
      expect(access.exp).toBe(Math.floor(nowS) + 1800);
      expect(refresh.exp).toBe(Math.floor(nowS) + 7 * 86_400);
    });

    it('answers a wrong password exactly like an unknown user', async () => {
      const wrong = await loginRequest(t.app, 'admin', 'Wrong123');
      const unknown = await loginRequest(t.app, 'nobody', 'Wrong123');
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      expect(wrong.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: '用户名或密码错误' });
    });

    it('trims the username and ignores its case', async () => {
      expect((await loginRequest(t.app, ' admin ', 'Admin123')).statusCode).toBe(200);
      expect((await loginRequest(t.app, 'ADMIN', 'Admin123')).statusCode).toBe(200);
    });

    it('rejects a username that is not base64 and a password that does not decrypt with 400', async () => {
      const password = await encryptPassword(t.app, 'Admin123');
      const cases = [
        { username: 'not base64!', password },
        { username: base64('admin'), password: 'not base64!' },
        { username: base64('admin'), password: base64('too short') },
        { username: base64('admin'), password: Buffer.alloc(48, 7).toString('base64') },
      ];
      for (const payload of cases) {
        const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().code).toBe('BAD_REQUEST');
      }
    });

    it('names the missing field in the request language', async () => {
      const send = (headers: Record<string, string>) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers,
          payload: { username: base64('admin') },
        });
      const zh = await send({});
      expect(zh.statusCode).toBe(400);
      expect(zh.json()).toEqual({ code: 'VALIDATION', message: '缺少必填字段 password' });
      expect((await send({ 'accept-language': 'en-US,en;q=0.9' })).json().message).toBe(
        'password is required',
      );
      expect((await send({ 'accept-language': 'es' })).json().message).toBe(
        'El campo password es obligatorio',
      );
      expect((await send({ 'accept-language': 'zh-CN' })).json().message).toBe('缺少必填字段 password');
    });

    it('rejects a blank username after trimming', async () => {
      const res = await loginRequest(t.app, '   ', 'Admin123', { 'accept-language': 'en' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'VALIDATION', message: 'username is required' });
    });

    it('refuses a user without a user level and a disabled user with 403, once the password is right', async () => {
      await createUser(t.app, { username: 'nolevel', password: 'Secret12', userLevel: null });
      await createUser(t.app, { username: 'off', password: 'Secret12', userLevel: 2, disabled: true });
      const noLevel = await loginRequest(t.app, 'nolevel', 'Secret12');
      expect(noLevel.statusCode).toBe(403);
      expect(noLevel.json().code).toBe('NO_USER_LEVEL');
      const disabled = await loginRequest(t.app, 'off', 'Secret12');
      expect(disabled.statusCode).toBe(403);
      expect(disabled.json().code).toBe('USER_DISABLED');
      expect((await loginRequest(t.app, 'off', 'Wrong123')).json().code).toBe('INVALID_CREDENTIALS');
    });
  });

  describe('me', () => {
    it('answers with the token in the query or in the header', async () => {
      const { token } = await login(t.app);
      const expected = {
        data: {
          id: expect.any(Number),
          username: 'admin',
          name: '管理员',
          avatar: '',
          introduction: '',
          roles: ['admin'],
          routes: [],
          userLevel: 1,
          setting: {},
          timeZone: t.config.telemetry.timeZone,
        },
      };
      const byQuery = await t.app.inject({ method: 'GET', url: `/api/auth/me?token=${token}` });
      expect(byQuery.statusCode).toBe(200);
      expect(byQuery.json()).toEqual(expected);
      const byHeader = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
      expect(byHeader.json()).toEqual(expected);
    });

    it('prefers the header over ?token= when both are sent (the query may be a stale copy)', async () => {
      const { token } = await login(t.app);
      t.clock.advance(1801_000);
      const fresh = await login(t.app);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/auth/me?token=${token}`,
        headers: bearer(fresh.token),
      });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('gives editors the editor role', async () => {
      await createUser(t.app, { username: 'ed', password: 'Secret12', userLevel: 2 });
      const { token } = await login(t.app, 'ed', 'Secret12');
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
      expect(res.json().data).toMatchObject({ roles: ['editor'], userLevel: 2 });
    });

    it('answers 401 UNAUTHORIZED without a token or with a bad one', async () => {
      const none = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
      expect(none.statusCode).toBe(401);
      expect(none.json().code).toBe('UNAUTHORIZED');
      const bad = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer('garbage') });
      expect(bad.json().code).toBe('UNAUTHORIZED');
      const { refreshToken } = await login(t.app);
      const refreshAsAccess = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(refreshToken),
      });
      expect(refreshAsAccess.statusCode).toBe(401);
    });

    it('answers 401 TOKEN_EXPIRED once the access token has expired', async () => {
      const { token } = await login(t.app);
      t.clock.advance(1801 * 1000);
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('TOKEN_EXPIRED');
    });

    it('refuses a token signed with another secret', async () => {
      const forged = await new SignJWT({ typ: 'access' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('1')
        .setExpirationTime(Math.floor(t.clock.now() / 1000) + 60)
        .sign(new TextEncoder().encode('x'.repeat(48)));
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(forged) });
      expect(res.json().code).toBe('UNAUTHORIZED');
    });
  });

  describe('refresh and logout', () => {
    const refresh = (refreshToken: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { refreshToken } });

    it('rotates: the new pair works and the old refresh token is spent', async () => {
      const first = await login(t.app);
      t.clock.advance(1000);
      const res = await refresh(first.refreshToken);
      expect(res.statusCode).toBe(200);
      const second = res.json().data;
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(decodeJwt(second.refreshToken).fam).toBe(decodeJwt(first.refreshToken).fam);
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(second.token) });
      expect(me.statusCode).toBe(200);
      expect((await refresh(second.refreshToken)).statusCode).toBe(200);
    });

    it('treats reuse of a spent refresh token as theft and revokes the whole family', async () => {
      const first = await login(t.app);
      const second = (await refresh(first.refreshToken)).json().data;
      t.clock.advance(REUSE_GRACE_MS + 1000);
      const reuse = await refresh(first.refreshToken);
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json().code).toBe('REFRESH_INVALID');
      expect((await refresh(second.refreshToken)).statusCode).toBe(401);
      const other = await login(t.app);
      expect((await refresh(other.refreshToken)).statusCode).toBe(200);
    });

    it('answers the retry of a refresh whose answer was lost, and spends the answer nobody received', async () => {
      const first = await login(t.app);
      const lost = (await refresh(first.refreshToken)).json().data;
      t.clock.advance(2000);
      const retried = await refresh(first.refreshToken);
      expect(retried.statusCode, retried.body).toBe(200);
      // Retried once more (its answer lost too): still the same session.
      t.clock.advance(2000);
      const again = await refresh(first.refreshToken);
      expect(again.statusCode, again.body).toBe(200);
      const pair = again.json().data;
      expect(decodeJwt(pair.refreshToken).fam).toBe(decodeJwt(first.refreshToken).fam);
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(pair.token) });
      expect(me.statusCode).toBe(200);
      // The pairs nobody received are spent: presenting one later is theft, and ends the session.
      t.clock.advance(REUSE_GRACE_MS + 1000);
      expect((await refresh(lost.refreshToken)).json().code).toBe('REFRESH_INVALID');
      expect((await refresh(pair.refreshToken)).statusCode).toBe(401);
    });

    it('treats a retry after the new token was used as theft, even within the grace', async () => {
      const first = await login(t.app);
      const second = (await refresh(first.refreshToken)).json().data;
      expect((await refresh(second.refreshToken)).statusCode).toBe(200);
      const reuse = await refresh(first.refreshToken);
      expect(reuse.json().code).toBe('REFRESH_INVALID');
      const other = await login(t.app);
      expect((await refresh(other.refreshToken)).statusCode).toBe(200);
    });

    it('refuses the retry of a logged-out session', async () => {
      const first = await login(t.app);
      const second = (await refresh(first.refreshToken)).json().data;
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refreshToken: second.refreshToken },
      });
      expect((await refresh(first.refreshToken)).statusCode).toBe(401);
    });

    it('refuses unknown, garbage and expired refresh tokens', async () => {
      expect((await refresh('garbage')).json().code).toBe('REFRESH_INVALID');
      const { token, refreshToken } = await login(t.app);
      expect((await refresh(token)).statusCode).toBe(401);
      t.clock.advance(7 * 86_400_000 + 1000);
      const expired = await refresh(refreshToken);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().code).toBe('REFRESH_INVALID');
    });

    it('logout revokes the refresh token and is idempotent', async () => {
      const { refreshToken } = await login(t.app);
      const logout = () =>
        t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } });
      const res = await logout();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { ok: true } });
      expect((await logout()).statusCode).toBe(200);
      expect((await refresh(refreshToken)).statusCode).toBe(401);
    });

    it('requires a refresh token in the body', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: {} });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION');
    });
  });

  describe('sessions end at once', () => {
    const me = (token: string) =>
      t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });

    it('logout ends that session’s access token, not the user’s other sessions', async () => {
      const first = await login(t.app);
      const second = await login(t.app);
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refreshToken: first.refreshToken },
      });
      const after = await me(first.token);
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('UNAUTHORIZED');
      expect((await me(second.token)).statusCode).toBe(200);
    });

    it('an admin password reset ends every access token of the user', async () => {
      const admin = await login(t.app);
      await createUser(t.app, { username: 'ed', password: 'Secret12', userLevel: 2 });
      const ed = await login(t.app, 'ed', 'Secret12');
      const list = await t.app.inject({ method: 'GET', url: '/api/users', headers: bearer(admin.token) });
      const id = list.json().data.list.find((u: { username: string }) => u.username === 'ed').id;
      const reset = await t.app.inject({
        method: 'POST',
        url: `/api/users/${id}/password`,
        headers: bearer(admin.token),
        payload: { password: 'Other123' },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      expect((await me(ed.token)).statusCode).toBe(401);
      expect((await me(admin.token)).statusCode).toBe(200);
    });

    it('a rotated session keeps working with the new access token', async () => {
      const first = await login(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        payload: { refreshToken: first.refreshToken },
      });
      const next = res.json().data;
      expect((await me(next.token)).statusCode).toBe(200);
      // The access token issued before the rotation belongs to the same, still open, session.
      expect((await me(first.token)).statusCode).toBe(200);
    });

    it('authenticate() is the one check: it refuses the token of an ended session', async () => {
      const { token, refreshToken } = await login(t.app);
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } });
      expect((await me(token)).statusCode).toBe(401);
    });
  });

  describe('own password change', () => {
    const me = (token: string) =>
      t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    const change = (token: string, currentPassword: string, newPassword: string, lang = 'en') =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: { ...bearer(token), 'accept-language': lang },
        payload: { currentPassword, newPassword },
      });

    it('lets an editor change their password, ending their other sessions but not this one', async () => {
      await createUser(t.app, { username: 'ed', password: 'Secret12', userLevel: 2 });
      const here = await login(t.app, 'ed', 'Secret12');
      const elsewhere = await login(t.app, 'ed', 'Secret12');
      const res = await change(here.token, 'Secret12', 'Newer123');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ data: { ok: true } });
      expect((await me(here.token)).statusCode).toBe(200);
      expect((await me(elsewhere.token)).statusCode).toBe(401);
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        payload: { refreshToken: here.refreshToken },
      });
      expect(refreshed.statusCode).toBe(200);
      expect((await loginRequest(t.app, 'ed', 'Secret12')).statusCode).toBe(401);
      await login(t.app, 'ed', 'Newer123');
    });

    it('refuses a wrong current password with 400, not 401 (the session goes on), in the request language', async () => {
      const { token } = await login(t.app);
      const res = await change(token, 'Wrong123', 'Newer123');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'VALIDATION', message: 'The current password is wrong' });
      expect((await change(token, 'Wrong123', 'Newer123', 'zh')).json().message).toBe('当前密码不正确');
      expect((await me(token)).statusCode).toBe(200);
      await login(t.app);
    });

    it('holds the new password to the 6–20 rule', async () => {
      const { token } = await login(t.app);
      for (const bad of ['abc12', 'a'.repeat(21), 'with space1', '密码密码密码']) {
        const res = await change(token, 'Admin123', bad);
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().code).toBe('VALIDATION');
      }
    });

    it('counts wrong current passwords as failed logins: guessing is throttled', async () => {
      const { token } = await login(t.app);
      for (let i = 0; i < 4; i++) expect((await change(token, 'Wrong123', 'Newer123')).statusCode).toBe(400);
      const held = await change(token, 'Admin123', 'Newer123');
      expect(held.statusCode).toBe(429);
      expect(held.headers['retry-after']).toBe('1');
      t.clock.advance(1000);
      expect((await change(token, 'Admin123', 'Newer123')).statusCode).toBe(200);
    });

    it('needs a logged-in caller', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        payload: { currentPassword: 'Admin123', newPassword: 'Newer123' },
      });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('first start', () => {
    it('uses ADMIN_PASSWORD when set and never echoes it', () => {
      expect(t.app.firstStartAdmin).toEqual({ username: 'admin', generatedPassword: undefined });
    });

    it('generates an admin password matching the rule, reported once', async () => {
      const fresh = await buildTestApp(dialect, { env: { ADMIN_PASSWORD: undefined } });
      try {
        const password = fresh.app.firstStartAdmin?.generatedPassword;
        expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
        expect(password).toMatch(PASSWORD_PATTERN);
        await login(fresh.app, 'admin', password);
        const again = await fresh.restart();
        expect(again.firstStartAdmin).toBeUndefined();
        await login(again, 'admin', password);
      } finally {
        await fresh.close();
      }
    });
  });
});
