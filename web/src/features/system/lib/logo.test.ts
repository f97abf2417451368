import { LOGO_MAX_BYTES } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { checkLogoFile, toLogoConfig } from './logo.ts';

describe('checkLogoFile', () => {
  it('accepts png, jpeg, svg and webp up to LOGO_MAX_BYTES', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp']) {
      expect(checkLogoFile({ type, size: LOGO_MAX_BYTES })).toBeNull();
    }
  });

  it('refuses other types and larger files', () => {
    expect(checkLogoFile({ type: 'image/gif', size: 10 })).toBe('wrongType');
    expect(checkLogoFile({ type: '', size: 10 })).toBe('wrongType');
    expect(checkLogoFile({ type: 'image/png', size: LOGO_MAX_BYTES + 1 })).toBe('tooLarge');
  });
});

describe('toLogoConfig', () => {
  it('reads the config value JSON and objects, refusing anything else', () => {
    expect(toLogoConfig('{"img":"data:x","show":false}')).toEqual({ img: 'data:x', show: false });
    expect(toLogoConfig({ img: '', show: true })).toEqual({ img: '', show: true });
    expect(toLogoConfig('not json')).toBeNull();
    expect(toLogoConfig({ img: 1, show: true })).toBeNull();
    expect(toLogoConfig(null)).toBeNull();
  });
});
