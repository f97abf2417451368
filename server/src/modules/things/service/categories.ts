import type {
  Category,
  CategoryAbilitiesPatch,
  CategoryAbility,
  CategoryAbilityInput,
  CategoryInput,
  PageResult,
} from '@kilowatch/contract';
import { AppError } from '../../../errors.ts';
import * as repo from '../repository/index.ts';
import {
  defaultAggregator,
  mergeAbility,
  nameTaken,
  notFound,
  type Paging,
  paging,
  requiredName,
  type ServiceContext,
} from './context.ts';

/** Categories and the abilities their things measure. */
export function categoryService(ctx: ServiceContext) {
  const { db, isoNow, requireCategory, write, assertNameFree, deleteNamed, assertCumulativeIsNumber } = ctx;
  return {
    async listCategories(query: Paging & { name?: string }): Promise<PageResult<Category>> {
      const p = paging(query);
      return { ...(await repo.listCategories(db, { ...p, name: query.name?.trim() })), ...p };
    },

    async createCategory(input: CategoryInput): Promise<Category> {
      const name = requiredName(input.name);
      const conflict = () => nameTaken('thing_categories', name, '');
      return write(async (trx) => {
        await assertNameFree(trx, 'thing_categories', name);
        const id = await repo.insertCategory(trx, { name, description: input.description ?? '' }, isoNow());
        return requireCategory(trx, id);
      }, conflict);
    },

    async updateCategory(id: number, input: CategoryInput): Promise<Category> {
      const name = requiredName(input.name);
      const conflict = () => nameTaken('thing_categories', name, '');
      return write(async (trx) => {
        const current = await requireCategory(trx, id);
        await assertNameFree(trx, 'thing_categories', name, { exceptId: id });
        await repo.updateCategory(
          trx,
          id,
          { name, description: input.description ?? current.description },
          isoNow(),
        );
        return requireCategory(trx, id);
      }, conflict);
    },

    /** Refused (409, naming the models) while models use the category; its abilities go with it. */
    async deleteCategory(id: number): Promise<void> {
      await write(
        async (trx) => {
          await deleteNamed(trx, 'thing_categories', await requireCategory(trx, id));
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    /** The names of the categories among `ids` that exist (the catalog's answer to other modules). */
    categoryNames(ids: readonly number[]): Promise<Map<number, string>> {
      return repo.categoryNames(db, ids);
    },

    // ---- category abilities ----

    async categoryAbilities(categoryId: number): Promise<CategoryAbility[]> {
      await requireCategory(db, categoryId);
      return repo.listCategoryAbilities(db, categoryId);
    },

    async createCategoryAbility(categoryId: number, input: CategoryAbilityInput): Promise<CategoryAbility> {
      const cumulative = input.cumulative ?? false;
      const values: repo.AbilityValues = {
        identifier: input.identifier,
        name: requiredName(input.name),
        unit: input.unit?.trim() ?? '',
        dataType: input.dataType ?? 'number',
        aggregator: input.aggregator ?? defaultAggregator(cumulative),
        cumulative,
        enumOptions: input.enumOptions ?? [],
        sort: input.sort ?? 0,
      };
      assertCumulativeIsNumber(values);
      let categoryName = '';
      const conflict = () =>
        new AppError(
          'CONFLICT',
          409,
          { identifier: values.identifier, category: categoryName },
          { message: 'things.abilityIdentifierTaken' },
        );
      return write(async (trx) => {
        const category = await requireCategory(trx, categoryId);
        categoryName = category.name;
        if (await repo.findCategoryAbilityByIdentifier(trx, categoryId, values.identifier)) throw conflict();
        return repo.insertCategoryAbility(trx, categoryId, values, isoNow());
      }, conflict);
    },

    /** Updates several abilities of one category at once; every id must be one of its abilities. */
    async patchCategoryAbilities(
      categoryId: number,
      patch: CategoryAbilitiesPatch,
    ): Promise<CategoryAbility[]> {
      return write(
        async (trx) => {
          const category = await requireCategory(trx, categoryId);
          const current = new Map((await repo.listCategoryAbilities(trx, categoryId)).map((a) => [a.id, a]));
          const stamp = isoNow();
          for (const change of patch) {
            const ability = current.get(change.id);
            if (!ability) {
              throw new AppError(
                'NOT_FOUND',
                404,
                { id: change.id, category: category.name },
                { message: 'things.abilityNotInCategory' },
              );
            }
            const next = {
              ...mergeAbility<never>(ability, change),
              dataType: change.dataType ?? ability.dataType,
              enumOptions: change.enumOptions ?? ability.enumOptions,
            };
            assertCumulativeIsNumber({ identifier: ability.identifier, ...next });
            await repo.updateCategoryAbility(trx, ability.id, next, stamp);
            current.set(ability.id, { ...ability, ...next });
          }
          return repo.listCategoryAbilities(trx, categoryId);
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    /** Also drops the models' overrides and the things' removals of it. */
    async deleteCategoryAbility(id: number): Promise<void> {
      await write(
        async (trx) => {
          if (!(await repo.findCategoryAbility(trx, id))) throw notFound('things.abilityNotFound', id);
          await repo.deleteCategoryAbility(trx, id);
        },
        () => new AppError('CONFLICT', 409),
      );
    },
  };
}
