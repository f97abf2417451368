import type { AlarmCondition } from '@kilowatch/contract';
import { useTranslation } from 'react-i18next';
import { useCategoryAbilities } from '../../../api/things.ts';
import { conditionText } from '../lib/condition-text.ts';

/**
 * A watched metric by its name in the category (压力, not `pressure`), with the identifier as
 * the title; the identifier alone for a rule of any category or while the names load.
 */
export function AbilityName({ categoryId, ability }: { categoryId: number | null; ability: string }) {
  const abilities = useCategoryAbilities(categoryId);
  const name = abilities.data?.find((a) => a.identifier === ability)?.name;
  return <span title={ability}>{name ?? ability}</span>;
}

/** A rule's condition in its ability's unit, with states by name ("> 105 ℃", "状态为 故障"). */
export function ConditionText({
  categoryId,
  ability,
  condition,
}: {
  categoryId: number | null;
  ability: string;
  condition: AlarmCondition;
}) {
  const { t } = useTranslation();
  const abilities = useCategoryAbilities(categoryId);
  const found = abilities.data?.find((a) => a.identifier === ability);
  return <span data-testid="rule-condition">{conditionText(condition, t, found ?? {})}</span>;
}
