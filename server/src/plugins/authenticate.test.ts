import { describe, expect, it } from 'vitest';
import { authorize } from './authenticate.ts';

describe('authorize', () => {
  const admin = { id: 1, username: 'admin', roles: ['admin'], userLevel: 1 };
  const editor = { id: 2, username: 'ed', roles: ['editor'], userLevel: 2 };

  it('lets anyone signed in through a route that requires no role', () => {
    expect(authorize(editor, undefined)).toBe(true);
    expect(authorize(editor, [])).toBe(true);
  });

  it('requires one of the listed roles, and admin passes every check', () => {
    expect(authorize(editor, ['admin'])).toBe(false);
    expect(authorize(editor, ['operator', 'editor'])).toBe(true);
    expect(authorize(admin, ['operator'])).toBe(true);
  });
});
