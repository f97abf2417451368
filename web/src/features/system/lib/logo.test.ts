import { LOGO_MAX_BYTES } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { checkLogoFile } from './logo.ts';

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
