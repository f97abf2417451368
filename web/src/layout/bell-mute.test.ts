import { describe, expect, it } from 'vitest';
import { muteAfter, muteOver } from './bell-mute.ts';

describe('mute until a new alarm', () => {
  it('stays muted while the bell lists only alarms seen when muting', () => {
    const mute = muteOver([7, 5, 3]);
    expect(muteAfter(mute, [7, 5, 3])).toBe(mute);
    expect(muteAfter(mute, [5])).toBe(mute);
    expect(muteAfter(mute, [])).toBe(mute);
  });

  it('ends when an alarm id not seen at mute time appears', () => {
    const mute = muteOver([7, 5]);
    expect(muteAfter(mute, [8, 7, 5])).toBeNull();
    // Not only a higher id: an older alarm back from its shelf was not in the list either.
    expect(muteAfter(mute, [7, 5, 2])).toBeNull();
  });

  it('once ended it stays ended, and nothing is muted before muting', () => {
    expect(muteAfter(null, [1])).toBeNull();
    expect(muteAfter(null, [])).toBeNull();
  });

  it('muting an empty list rings on the first alarm', () => {
    expect(muteAfter(muteOver([]), [1])).toBeNull();
  });
});
