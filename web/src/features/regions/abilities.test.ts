import { describe, expect, it } from 'vitest';
import { regionAbilities } from './abilities.ts';

describe('regionAbilities', () => {
  it('admins and roles granting /region edit; everyone else reads', () => {
    expect(regionAbilities(['admin'], []).canEditRegions).toBe(true);
    expect(regionAbilities(['editor'], ['/region']).canEditRegions).toBe(true);
    expect(regionAbilities(['editor'], ['/device_management/nodes']).canEditRegions).toBe(false);
    expect(regionAbilities(['editor'], []).canEditRegions).toBe(false);
  });
});
