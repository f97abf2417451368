import { LAYOUT_ROUTES, type RouteDef, SYSTEM_SETTING_IDENTIFIER } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { type ResourceSeed, syncResources } from './roles/repository.ts';
import { DEFAULT_LOGO } from './sysconfigs/logo.ts';
import { insertConfigIfAbsent } from './sysconfigs/repository.ts';

/** Every console route, parents before children, in menu order. */
function resourceSeeds(routes: RouteDef[] = LAYOUT_ROUTES): ResourceSeed[] {
  const seeds: ResourceSeed[] = [];
  const walk = (list: RouteDef[], parentPath: string | null) => {
    for (const route of list) {
      seeds.push({
        path: route.path,
        name: route.name,
        titleKey: route.titleKey,
        parentPath,
        adminOnly: route.adminOnly ?? false,
        sort: seeds.length + 1,
      });
      walk(route.children ?? [], route.path);
    }
  };
  walk(routes, null);
  return seeds;
}

/**
 * Runs at every start, after migrations: the resources follow the console's routes (new ones
 * appear, removed ones go with their grants) and the logo setting exists. Idempotent, and safe
 * when several replicas start at once.
 */
export async function bootstrapSystem(db: Kysely<DB>, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await syncResources(trx, resourceSeeds());
    await insertConfigIfAbsent(
      trx,
      {
        identifier: SYSTEM_SETTING_IDENTIFIER,
        name: '系统设置',
        value: JSON.stringify(DEFAULT_LOGO),
        description: 'Logo: {"img": data URL or http(s) address, "show": boolean}',
      },
      now.toISOString(),
    );
  });
}
