import type { MaintenanceInput, MaintenanceQuery, MaintenanceWindow } from '@kilowatch/contract';
import { page as pageOf } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import * as repo from '../repository/index.ts';
import { iso, notFound, type ServiceContext } from './context.ts';

/** Maintenance windows: alarms are kept quiet in them. */
export function maintenanceService(ctx: ServiceContext) {
  const { db, catalog, now } = ctx;
  return {
    async listMaintenance(query: MaintenanceQuery) {
      const { page, pageSize } = pageOf(query);
      return {
        ...(await repo.listMaintenance(db, { page, pageSize, openAt: query.openAt })),
        page,
        pageSize,
      };
    },

    async createMaintenance(input: MaintenanceInput, createdBy: string): Promise<MaintenanceWindow> {
      if (input.end <= input.start) {
        throw new AppError('VALIDATION', 400, {}, { message: 'alarm.maintenanceRange' });
      }
      // The target's own service answers 404 for one that does not exist.
      await catalog.select({ resourceType: input.targetType, id: input.targetId });
      const id = await repo.insertMaintenance(
        db,
        { ...input, reason: input.reason.trim() },
        iso(now()),
        createdBy,
      );
      return (await repo.findMaintenance(db, id))!;
    },

    async deleteMaintenance(id: number): Promise<void> {
      if (!(await repo.deleteMaintenance(db, id))) throw notFound();
    },
  };
}
