import type { AlarmTemplate, AlarmTemplateInput, AlarmTemplateQuery } from '@kilowatch/contract';
import { isUniqueViolation, page as pageOf } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import * as repo from '../repository/index.ts';
import { iso, notFound, type ServiceContext } from './context.ts';

/** Rule templates. */
export function templateService(ctx: ServiceContext) {
  const { db, catalog, now, changed, checkCategory } = ctx;

  /** Templates with their categories' names, from the catalog. */
  async function named(records: repo.TemplateRecord[]): Promise<AlarmTemplate[]> {
    const names = await catalog.categoryNames(records.map((t) => t.categoryId));
    return records.map((t) => ({ ...t, categoryName: names.get(t.categoryId) ?? '' }));
  }

  async function getTemplate(id: number): Promise<AlarmTemplate> {
    const record = await repo.findTemplate(db, id);
    if (!record) throw notFound();
    return (await named([record]))[0]!;
  }

  return {
    async listTemplates(query: AlarmTemplateQuery) {
      const { page, pageSize } = pageOf(query);
      const { list, total } = await repo.listTemplates(db, { ...query, page, pageSize });
      return { list: await named(list), total, page, pageSize };
    },

    async createTemplate(input: AlarmTemplateInput) {
      await checkCategory(input.categoryId);
      try {
        return getTemplate(await repo.insertTemplate(db, input, iso(now())));
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
      return getTemplate(id);
    },

    async deleteTemplate(id: number): Promise<void> {
      const deleted = await db.transaction().execute((tx) => repo.deleteTemplate(tx, id));
      if (!deleted) throw notFound();
      changed();
    },

    checkCategory,
  };
}
