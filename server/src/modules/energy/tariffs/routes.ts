import {
  statisticsRangeTpfc,
  tariffBill,
  tariffCreate,
  tariffDelete,
  tariffGet,
  tariffList,
  tariffPlantGet,
  tariffPlantSet,
  tariffRegionList,
  tariffRegionsSet,
  tariffUpdate,
  tariffVersionCreate,
  tariffVersionDelete,
  tariffVersionUpdate,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../plugins/route.ts';
import type { TariffService } from '../bills/service.ts';

/** Where the plant's tariff is kept (erpConfig's tariffId, owned by the system settings). */
export interface PlantTariffStore {
  get: () => Promise<number | null>;
  /** 404 for an unknown tariff. */
  set: (tariffId: number | null) => Promise<number | null>;
}

/** Where the console edits tariffs: writes need it (docs/permissions.md). */
const TARIFF_RESOURCE = '/analysis/tariff';

/**
 * /api/tariffs and POST /api/statistics/range/TPFC. Reading tariffs, costs and bills is open to
 * every logged-in user, as the other energy reads are; writing a tariff needs admin or a role
 * granting the tariff screen.
 */
export const tariffRoutes: FastifyPluginAsync<{ service: TariffService; plant: PlantTariffStore }> = async (
  app,
  { service, plant },
) => {
  const guarded = { config: { resource: TARIFF_RESOURCE } };

  route(app, tariffPlantGet, {}, async () => ({ tariffId: await plant.get() }));
  route(app, tariffPlantSet, guarded, async (request) => ({
    tariffId: await plant.set(request.body.tariffId),
  }));
  route(app, tariffRegionList, {}, async () => service.regionTariffs());
  route(app, tariffRegionsSet, guarded, async (request) =>
    service.setRegions(request.params.id, request.body.regionIds),
  );
  route(app, tariffList, {}, async () => service.list());
  route(app, tariffGet, {}, async (request) => service.get(request.params.id));
  route(app, tariffCreate, guarded, async (request) => service.create(request.body));
  route(app, tariffUpdate, guarded, async (request) => service.update(request.params.id, request.body));
  route(app, tariffDelete, guarded, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
  route(app, tariffVersionCreate, guarded, async (request) =>
    service.addVersion(request.params.id, request.body),
  );
  route(app, tariffVersionUpdate, guarded, async (request) =>
    service.updateVersion(request.params.id, request.params.versionId, request.body),
  );
  route(app, tariffVersionDelete, guarded, async (request) =>
    service.removeVersion(request.params.id, request.params.versionId, request.query.retroactive),
  );
  route(app, statisticsRangeTpfc, {}, async (request) => service.tpfc(request.body));
  route(app, tariffBill, {}, async (request) => service.bill(request.body));
};
