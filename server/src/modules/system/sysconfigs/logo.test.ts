import { LOGO_MAX_BYTES } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { parseLogo, readLogo } from './logo.ts';

const dataUrl = (type: string, bytes: number) =>
  `data:${type};base64,${Buffer.alloc(bytes, 1).toString('base64')}`;

describe('parseLogo', () => {
  it('accepts an empty image, an http(s) address and small data URLs of the allowed types', () => {
    expect(parseLogo('{"img":"","show":false}')).toEqual({ img: '', show: false });
    expect(parseLogo('{"img":"https://example.com/logo.png","show":true}').img).toBe(
      'https://example.com/logo.png',
    );
    for (const type of ['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp']) {
      expect(parseLogo(JSON.stringify({ img: dataUrl(type, 100), show: true })).show).toBe(true);
    }
    expect(parseLogo(JSON.stringify({ img: dataUrl('image/png', LOGO_MAX_BYTES), show: true }))).toBeTruthy();
  });

  it.each([
    ['not json', 'logo.json'],
    ['[]', 'logo.json'],
    ['{"img":""}', 'logo.json'],
    ['{"img":"","show":"yes"}', 'logo.json'],
    ['{"img":1,"show":true}', 'logo.json'],
    ['{"img":"","show":true,"extra":1}', 'logo.json'],
    [JSON.stringify({ img: dataUrl('image/gif', 10), show: true }), 'logo.image'],
    [JSON.stringify({ img: dataUrl('text/html', 10), show: true }), 'logo.image'],
    [JSON.stringify({ img: 'javascript:alert(1)', show: true }), 'logo.image'],
    [JSON.stringify({ img: 'data:image/png;base64,@@@', show: true }), 'logo.image'],
    [JSON.stringify({ img: dataUrl('image/png', LOGO_MAX_BYTES + 1), show: true }), 'logo.tooLarge'],
  ])('refuses %s', (value, message) => {
    expect(() => parseLogo(value)).toThrow(expect.objectContaining({ status: 400, options: { message } }));
  });
});

describe('readLogo', () => {
  it('falls back to the default when the value is missing or unreadable', () => {
    expect(readLogo(undefined)).toEqual({ img: '', show: true });
    expect(readLogo('garbage')).toEqual({ img: '', show: true });
  });
});
