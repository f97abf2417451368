import type { Language } from '@kilowatch/contract';
import type { FastifySchemaValidationError } from 'fastify';
import { isMessageKey, translate } from './index.ts';

const KEYWORDS = [
  'required',
  'type',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'pattern',
  'format',
  'enum',
  'additionalProperties',
  'nul',
] as const;
type Keyword = (typeof KEYWORDS)[number];
const isKeyword = (k: string): k is Keyword => (KEYWORDS as readonly string[]).includes(k);

const param = (params: Record<string, unknown>, name: string): string => {
  const value = params[name];
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
};

/** `/filters/0/name` → `filters[0].name`, the way a form author would name the field. */
const fieldPath = (instancePath: string): string =>
  instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');

/**
 * One sentence naming the field and what is wrong with it, from the first ajv error of a
 * rejected request. Keywords it does not know keep ajv's own English text.
 */
export function describeValidationError(
  error: FastifySchemaValidationError,
  context: string | undefined,
  language: Language,
): string {
  const params = error.params as Record<string, unknown>;
  let field = fieldPath(error.instancePath);
  if (error.keyword === 'required')
    field = [field, param(params, 'missingProperty')].filter(Boolean).join('.');
  if (error.keyword === 'additionalProperties') {
    field = [field, param(params, 'additionalProperty')].filter(Boolean).join('.');
  }
  if (!field) {
    const contextKey = `field.${context ?? 'body'}`;
    field = isMessageKey(contextKey) ? translate(language, contextKey) : (context ?? '');
  }
  const keyword = error.keyword;
  if (!isKeyword(keyword)) {
    return translate(language, 'validation.other', { field, detail: error.message ?? keyword });
  }
  const typeKey = `type.${param(params, 'type').split(',')[0]}`;
  return translate(language, `validation.${keyword}`, {
    field,
    limit: param(params, 'limit'),
    type: isMessageKey(typeKey) ? translate(language, typeKey) : param(params, 'type'),
    format: param(params, 'format'),
    values: param(params, 'allowedValues'),
  });
}
