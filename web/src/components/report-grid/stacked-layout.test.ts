import { describe, expect, it } from 'vitest';
import { stackedLayout } from './ReportGrid.tsx';

describe('stackedLayout (a phone)', () => {
  it('puts each component the whole width, in reading order, heights kept', () => {
    // Two side by side, a wide one under them: right card listed first.
    const saved = [
      { x: 6, y: 0, w: 6, h: 6 },
      { x: 0, y: 0, w: 6, h: 5 },
      { x: 0, y: 6, w: 12, h: 8 },
    ];
    expect(stackedLayout(saved)).toEqual([
      { x: 0, y: 5, w: 12, h: 6 },
      { x: 0, y: 0, w: 12, h: 5 },
      { x: 0, y: 11, w: 12, h: 8 },
    ]);
  });
});
