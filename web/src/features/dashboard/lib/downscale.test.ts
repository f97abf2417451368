import { MAP_IMAGE_DISPLAY_PIXELS } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { displaySize } from './downscale.ts';

describe('displaySize', () => {
  it('leaves a layout a wall screen can show as it is', () => {
    expect(displaySize(3840, 2160)).toBeNull();
    expect(displaySize(4096, 4096)).toBeNull();
  });

  it('shrinks a larger one to the display bound, keeping its shape', () => {
    const size = displaySize(16_384, 16_384)!;
    expect(size).toEqual({ width: 4096, height: 4096 });
    const wide = displaySize(16_000, 4000)!;
    expect(wide.width * wide.height).toBeLessThanOrEqual(MAP_IMAGE_DISPLAY_PIXELS);
    expect(wide.width / wide.height).toBeCloseTo(4, 2);
  });
});
