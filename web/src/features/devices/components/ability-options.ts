import { AGGREGATORS, DATA_TYPES, IDENTIFIER_PATTERN } from '@kilowatch/contract';
import type { TFunction } from 'i18next';

/** The contract's identifier rule (letters first; letters, digits and _ . : - after; ≤ 64). */
const IDENTIFIER_REGEXP = new RegExp(IDENTIFIER_PATTERN);

export const dataTypeOptions = (t: TFunction) =>
  DATA_TYPES.map((value) => ({ value, label: t(`devices.ability.dataTypes.${value}`) }));

export const aggregatorOptions = (t: TFunction) =>
  AGGREGATORS.map((value) => ({ value, label: t(`devices.ability.aggregators.${value}`) }));

/** Form rules of an identifier field, with a message that says what is allowed. */
export const identifierRules = (t: TFunction) => [
  { required: true, message: t('devices.validation.identifierRequired') },
  { pattern: IDENTIFIER_REGEXP, message: t('devices.validation.identifierPattern') },
];
