import { useCategoryAbilities } from '../../../api/things.ts';

/**
 * A watched metric by its name in the category (压力, not `pressure`), with the identifier as
 * the title; the identifier alone for a rule of any category or while the names load.
 */
export function AbilityName({ categoryId, ability }: { categoryId: number | null; ability: string }) {
  const abilities = useCategoryAbilities(categoryId);
  const name = abilities.data?.find((a) => a.identifier === ability)?.name;
  return <span title={ability}>{name ?? ability}</span>;
}
