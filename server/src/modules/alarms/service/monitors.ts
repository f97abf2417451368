import type { AlarmMonitorQuery, MonitorBatch } from '@kilowatch/contract';
import { page as pageOf } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import * as repo from '../repository/index.ts';
import { iso, notFound, type ServiceContext } from './context.ts';

/** Monitors: which things a template watches. */
export function monitorService(ctx: ServiceContext) {
  const { db, catalog, now, changed } = ctx;
  return {
    async listMonitors(query: AlarmMonitorQuery) {
      const { page, pageSize } = pageOf(query);
      return { ...(await repo.listMonitors(db, { ...query, page, pageSize })), page, pageSize };
    },

    /** Applies a rule or template to things and regions; answers how many monitors are new. */
    async applyMonitors(batch: MonitorBatch): Promise<{ created: number }> {
      const applied =
        batch.appliedType === 'rule'
          ? await repo.findRule(db, batch.appliedId)
          : await repo.findTemplate(db, batch.appliedId);
      if (!applied)
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { id: batch.appliedId },
          { message: 'alarm.appliedUnknown' },
        );
      for (const target of batch.targets) {
        // The target's own service answers 404 for one that does not exist.
        await catalog.select({ resourceType: target.type, id: target.id });
      }
      const created = await repo.insertMonitors(
        db,
        { type: batch.appliedType, id: batch.appliedId },
        batch.targets,
        iso(now()),
      );
      if (created > 0) changed();
      return { created };
    },

    async deleteMonitor(id: number): Promise<void> {
      if (!(await repo.deleteMonitor(db, id))) throw notFound();
      changed();
    },
  };
}
