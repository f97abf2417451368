import { createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeUsername, encryptPassword } from './crypto.ts';

const key = randomBytes(32);
const keyBase64 = key.toString('base64');

const decrypt = (cipherBase64: string, withKey = key) => {
  const bytes = Buffer.from(cipherBase64, 'base64');
  const iv = bytes.subarray(0, 16);
  const decipher = createDecipheriv('aes-256-cbc', withKey, iv);
  return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
};

describe('encryptPassword', () => {
  it('decrypts with aes-256-cbc, the IV being the first 16 bytes', () => {
    for (const password of ['admin123', 'a', 'exactly16bytes!!', 'p@ss?~!,.#&@$%^*w0rd', 'contraseña-密码']) {
      const out = encryptPassword(password, keyBase64);
      expect(out).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(decrypt(out)).toBe(password);
    }
  });

  it('pads to whole blocks (PKCS#7): a 16-byte password gives iv + 2 blocks', () => {
    expect(Buffer.from(encryptPassword('exactly16bytes!!', keyBase64), 'base64')).toHaveLength(48);
    expect(Buffer.from(encryptPassword('short', keyBase64), 'base64')).toHaveLength(32);
  });

  it('two encryptions of the same password differ (random IV)', () => {
    const a = encryptPassword('admin123', keyBase64);
    const b = encryptPassword('admin123', keyBase64);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64').subarray(0, 16)).not.toEqual(Buffer.from(b, 'base64').subarray(0, 16));
    expect(decrypt(a)).toBe(decrypt(b));
  });

  it('does not decrypt under another key', () => {
    const out = encryptPassword('admin123', keyBase64);
    let result: string | null = null;
    try {
      result = decrypt(out, randomBytes(32));
    } catch {
      result = null;
    }
    expect(result).not.toBe('admin123');
  });
});

describe('encodeUsername', () => {
  it('is base64 of the UTF-8 text and round-trips', () => {
    for (const name of ['admin', '管理员', 'José Ñúñez', '🙂user']) {
      const encoded = encodeUsername(name);
      expect(encoded).toBe(Buffer.from(name, 'utf8').toString('base64'));
      expect(Buffer.from(encoded, 'base64').toString('utf8')).toBe(name);
    }
    expect(encodeUsername('管理员')).toBe('566h55CG5ZGY');
  });
});
