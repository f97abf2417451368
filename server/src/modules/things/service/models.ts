import type { EffectiveAbility, Model, ModelAbilityPatch, ModelInput, PageResult } from '@kilowatch/contract';
import { AppError } from '../../../errors.ts';
import * as repo from '../repository/index.ts';
import {
  mergeAbility,
  nameTaken,
  notFound,
  type Paging,
  paging,
  requiredName,
  type ServiceContext,
} from './context.ts';

/** Models of a category and their overrides of its abilities. */
export function modelService(ctx: ServiceContext) {
  const {
    db,
    isoNow,
    requireModel,
    missingReference,
    write,
    assertNameFree,
    deleteNamed,
    assertCumulativeIsNumber,
  } = ctx;
  return {
    async listModels(query: Paging & { name?: string; categoryId?: number }): Promise<PageResult<Model>> {
      const p = paging(query);
      return {
        ...(await repo.listModels(db, { ...p, name: query.name?.trim(), categoryId: query.categoryId })),
        ...p,
      };
    },

    async createModel(input: ModelInput): Promise<Model> {
      const name = requiredName(input.name);
      let categoryName = '';
      const conflict = () => nameTaken('thing_models', name, categoryName);
      return write(async (trx) => {
        const category = await repo.findCategory(trx, input.categoryId);
        if (!category) throw missingReference('things.categoryNotFound', input.categoryId);
        categoryName = category.name;
        await assertNameFree(trx, 'thing_models', name, { category });
        const id = await repo.insertModel(
          trx,
          { categoryId: category.id, name, description: input.description ?? '' },
          isoNow(),
        );
        return requireModel(trx, id);
      }, conflict);
    },

    /**
     * Moving a model to another category drops its overrides and its things' removals: they
     * named the old category's abilities.
     */
    async updateModel(id: number, input: ModelInput): Promise<Model> {
      const name = requiredName(input.name);
      let categoryName = '';
      const conflict = () => nameTaken('thing_models', name, categoryName);
      return write(async (trx) => {
        const current = await requireModel(trx, id);
        const category = await repo.findCategory(trx, input.categoryId);
        if (!category) throw missingReference('things.categoryNotFound', input.categoryId);
        categoryName = category.name;
        await assertNameFree(trx, 'thing_models', name, { exceptId: id, category });
        if (category.id !== current.categoryId) {
          await repo.deleteModelOverrides(trx, id);
          await repo.deleteAbilityRemovalsOfModel(trx, id);
        }
        await repo.updateModel(
          trx,
          id,
          { categoryId: category.id, name, description: input.description ?? current.description },
          isoNow(),
        );
        return requireModel(trx, id);
      }, conflict);
    },

    /** Refused (409, naming the things) while things use the model; its overrides go with it. */
    async deleteModel(id: number): Promise<void> {
      await write(
        async (trx) => {
          await deleteNamed(trx, 'thing_models', await requireModel(trx, id));
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    async modelAbilities(modelId: number): Promise<EffectiveAbility[]> {
      await requireModel(db, modelId);
      return repo.effectiveAbilitiesOfModel(db, modelId);
    },

    /**
     * Sets (merges) the model's override of one category ability, or drops it with `reset`.
     * 404 when the ability is not of the model's category.
     */
    async patchModelAbility(abilityId: number, patch: ModelAbilityPatch): Promise<EffectiveAbility> {
      return write(
        async (trx) => {
          const model = await requireModel(trx, patch.modelId);
          const ability = await repo.findCategoryAbility(trx, abilityId);
          if (!ability || ability.categoryId !== model.categoryId) {
            throw new AppError(
              'NOT_FOUND',
              404,
              { id: abilityId, category: model.categoryName },
              { message: 'things.abilityNotInCategory' },
            );
          }
          if (patch.reset) {
            await repo.deleteModelOverrides(trx, model.id, abilityId);
          } else {
            const current = (await repo.findModelOverride(trx, model.id, abilityId)) ?? {
              name: null,
              unit: null,
              aggregator: null,
              cumulative: null,
              sort: null,
            };
            const next: repo.OverrideValues = mergeAbility<null>(current, patch);
            assertCumulativeIsNumber({
              identifier: ability.identifier,
              dataType: ability.dataType,
              cumulative: next.cumulative ?? ability.cumulative,
            });
            await repo.upsertModelOverride(trx, model.id, abilityId, next, isoNow());
          }
          const effective = await repo.effectiveAbilitiesOfModel(trx, model.id);
          const result = effective.find((a) => a.abilityId === abilityId);
          if (!result) throw notFound('things.abilityNotFound', abilityId);
          return result;
        },
        () => new AppError('CONFLICT', 409),
      );
    },
  };
}
