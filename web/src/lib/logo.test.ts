import { describe, expect, it } from 'vitest';
import { toLogoConfig } from './logo.ts';

describe('toLogoConfig', () => {
  it('reads the config value JSON and objects, refusing anything else', () => {
    expect(toLogoConfig('{"img":"data:x","show":false}')).toEqual({ img: 'data:x', show: false });
    expect(toLogoConfig({ img: '', show: true })).toEqual({ img: '', show: true });
    expect(toLogoConfig('not json')).toBeNull();
    expect(toLogoConfig({ img: 1, show: true })).toBeNull();
    expect(toLogoConfig(null)).toBeNull();
  });
});
