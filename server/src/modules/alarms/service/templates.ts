import type { AlarmTemplateInput, AlarmTemplateQuery } from '@kilowatch/contract';
import { isUniqueViolation, page as pageOf } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import * as repo from '../repository/index.ts';
import { iso, notFound, type ServiceContext } from './context.ts';

/** Rule templates. */
export function templateService(ctx: ServiceContext) {
  const { db, now, changed, checkCategory } = ctx;
  return {
    async listTemplates(query: AlarmTemplateQuery) {
      const { page, pageSize } = pageOf(query);
      return { ...(await repo.listTemplates(db, { ...query, page, pageSize })), page, pageSize };
    },

    async createTemplate(input: AlarmTemplateInput) {
      await checkCategory(input.categoryId);
      try {
        const id = await repo.insertTemplate(db, input, iso(now()));
        return (await repo.findTemplate(db, id))!;
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('CONFLICT', 409, { name: input.name }, { message: 'alarm.templateExists' });
        throw error;
      }
    },

    async updateTemplate(id: number, input: AlarmTemplateInput) {
      const current = await repo.findTemplate(db, id);
      if (!current) throw notFound();
      await checkCategory(input.categoryId);
      if (current.categoryId !== input.categoryId && current.rules > 0) {
        throw new AppError('CONFLICT', 409, {}, { message: 'alarm.templateHasRules' });
      }
      try {
        await repo.updateTemplate(db, id, input, iso(now()));
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('CONFLICT', 409, { name: input.name }, { message: 'alarm.templateExists' });
        throw error;
      }
      changed();
      return (await repo.findTemplate(db, id))!;
    },

    async deleteTemplate(id: number): Promise<void> {
      const deleted = await db.transaction().execute((tx) => repo.deleteTemplate(tx, id));
      if (!deleted) throw notFound();
      changed();
    },

    checkCategory,
  };
}
