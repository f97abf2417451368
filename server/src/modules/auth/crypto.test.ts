import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeUsername, decryptPassword, deriveLoginKey, hashPassword, verifyPassword } from './crypto.ts';

const encrypt = (plain: string, key: Buffer) => {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
};

describe('login payload crypto', () => {
  const key = deriveLoginKey('a-secret-of-at-least-thirty-two-characters');

  it('derives a stable 32-byte key per secret', () => {
    expect(key).toHaveLength(32);
    expect(deriveLoginKey('a-secret-of-at-least-thirty-two-characters')).toEqual(key);
    expect(deriveLoginKey('another-secret-of-at-least-thirty-two-chars')).not.toEqual(key);
  });

  it('decrypts what the console encrypts, including non-ASCII text', () => {
    expect(decryptPassword(encrypt('Admin123', key), key)).toBe('Admin123');
    expect(decryptPassword(encrypt('密码ñ#&@', key), key)).toBe('密码ñ#&@');
  });

  it('returns undefined for anything that does not decrypt', () => {
    const other = deriveLoginKey('another-secret-of-at-least-thirty-two-chars');
    expect(decryptPassword('%%%', key)).toBeUndefined();
    expect(decryptPassword(Buffer.alloc(20).toString('base64'), key)).toBeUndefined();
    expect(decryptPassword(`${encrypt('Admin123', key)}AAAA`, key)).toBeUndefined();
    // A wrong key almost always breaks the padding; when it does not, the password is just wrong.
    expect(decryptPassword(encrypt('Admin123', other), key)).not.toBe('Admin123');
  });

  it('decodes and trims the base64 username, refusing invalid base64 or UTF-8', () => {
    expect(decodeUsername(Buffer.from('  张三 ').toString('base64'))).toBe('张三');
    expect(decodeUsername('YWRtaW4')).toBeUndefined();
    expect(decodeUsername(Buffer.from([0xff, 0xfe]).toString('base64'))).toBeUndefined();
  });

  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword('Admin123');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'Admin123')).toBe(true);
    expect(await verifyPassword(hash, 'admin123')).toBe(false);
    expect(await verifyPassword('not a hash', 'Admin123')).toBe(false);
  });
});
