import type { AlarmCondition, AlarmRule, AlarmRuleInput, Comparison, Severity } from '@kilowatch/contract';

export const CONDITION_KINDS = ['threshold', 'range', 'rate', 'noData', 'state'] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];

/** The rule dialog's fields: the condition flattened, so each kind shows its own inputs. */
export interface RuleFormValues {
  name: string;
  categoryId: number | null;
  ability: string;
  templateId: number | null;
  kind: ConditionKind;
  op: Comparison;
  value: number | null;
  inside: boolean;
  low: number | null;
  high: number | null;
  seconds: number | null;
  values: string[];
  onDelay: number;
  offDelay: number;
  deadband: number;
  severity: Severity;
  message: string;
}

export const EMPTY_RULE: RuleFormValues = {
  name: '',
  categoryId: null,
  ability: '',
  templateId: null,
  kind: 'threshold',
  op: '>',
  value: null,
  inside: false,
  low: null,
  high: null,
  seconds: 60,
  values: [],
  onDelay: 0,
  offDelay: 0,
  deadband: 0,
  severity: 'major',
  message: '',
};

export function formOf(rule: AlarmRule): RuleFormValues {
  const c = rule.condition;
  return {
    ...EMPTY_RULE,
    name: rule.name,
    categoryId: rule.categoryId,
    ability: rule.ability,
    templateId: rule.templateId,
    kind: c.kind,
    ...(c.kind === 'threshold' && { op: c.op, value: c.value }),
    ...(c.kind === 'range' && { inside: c.inside, low: c.low, high: c.high }),
    ...(c.kind === 'rate' && { op: c.op, value: c.value, seconds: c.seconds }),
    ...(c.kind === 'noData' && { seconds: c.seconds }),
    ...(c.kind === 'state' && { values: c.values }),
    onDelay: rule.onDelay,
    offDelay: rule.offDelay,
    deadband: rule.deadband,
    severity: rule.severity,
    message: rule.message,
  };
}

/** A form field left empty where the kind needs it: the dialog's validation stops before this. */
const need = (v: number | null, field: string): number => {
  if (v === null || !Number.isFinite(v)) throw new Error(`rule form: ${field} is empty`);
  return v;
};

function conditionOf(v: RuleFormValues): AlarmCondition {
  switch (v.kind) {
    case 'threshold':
      return { kind: 'threshold', op: v.op, value: need(v.value, 'value') };
    case 'range':
      return { kind: 'range', inside: v.inside, low: need(v.low, 'low'), high: need(v.high, 'high') };
    case 'rate':
      return { kind: 'rate', op: v.op, value: need(v.value, 'value'), seconds: need(v.seconds, 'seconds') };
    case 'noData':
      return { kind: 'noData', seconds: need(v.seconds, 'seconds') };
    case 'state':
      return { kind: 'state', values: v.values.map((s) => s.trim()).filter(Boolean) };
  }
}

export const inputOf = (v: RuleFormValues): AlarmRuleInput => ({
  name: v.name.trim(),
  ability: v.ability,
  categoryId: v.categoryId,
  condition: conditionOf(v),
  onDelay: v.onDelay ?? 0,
  offDelay: v.offDelay ?? 0,
  deadband: v.deadband ?? 0,
  severity: v.severity,
  message: v.message?.trim() ?? '',
  templateId: v.templateId ?? null,
});

/** The kinds that compare numbers (a deadband means something for them). */
export const NUMERIC_KINDS: ReadonlySet<ConditionKind> = new Set(['threshold', 'range', 'rate']);
