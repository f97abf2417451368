import { describe, expect, it } from 'vitest';
import { naturalCompare } from './natural.ts';

describe('naturalCompare', () => {
  it('orders numbered devices as counted', () => {
    expect(['10#空压机', '2#空压机', '1#空压机', '11#空压机'].sort(naturalCompare)).toEqual([
      '1#空压机',
      '2#空压机',
      '10#空压机',
      '11#空压机',
    ]);
    expect(['M10', 'm2', 'M1'].sort(naturalCompare)).toEqual(['M1', 'm2', 'M10']);
  });
});
