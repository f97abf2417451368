import type { FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { pickLanguage, translate } from './index.ts';
import { describeValidationError } from './validation.ts';

describe('pickLanguage', () => {
  it.each([
    [undefined, 'zh'],
    ['', 'zh'],
    ['zh-CN,zh;q=0.9', 'zh'],
    ['en-US,en;q=0.9', 'en'],
    ['es-ES', 'es'],
    ['fr;q=1, en-GB;q=0.8, es;q=0.5', 'en'],
    ['en;q=0.2, es;q=0.7', 'es'],
    ['fr, de', 'zh'],
    ['en;q=0', 'zh'],
  ])('%s → %s', (header, language) => {
    expect(pickLanguage(header)).toBe(language);
  });
});

describe('pickLanguage with a route default', () => {
  it('falls back to the route default, never overrides what the client asked', () => {
    expect(pickLanguage(undefined, 'en')).toBe('en');
    expect(pickLanguage('fr, de', 'en')).toBe('en');
    expect(pickLanguage('zh-CN', 'en')).toBe('zh');
    expect(pickLanguage('es;q=0.5', 'en')).toBe('es');
  });
});

describe('translate', () => {
  it('fills placeholders', () => {
    expect(translate('en', 'TOO_MANY_ATTEMPTS', { minutes: 3 })).toBe(
      'Too many failed logins, please try again in 3 minute(s)',
    );
  });
});

describe('describeValidationError', () => {
  const error = (e: Partial<FastifySchemaValidationError>): FastifySchemaValidationError => ({
    keyword: 'type',
    instancePath: '',
    schemaPath: '#',
    params: {},
    ...e,
  });

  it.each([
    [error({ keyword: 'required', params: { missingProperty: 'name' } }), 'name is required'],
    [
      error({ instancePath: '/pageSize', keyword: 'type', params: { type: 'integer' } }),
      'pageSize must be an integer',
    ],
    [
      error({ instancePath: '/name', keyword: 'minLength', params: { limit: 2 } }),
      'name must be at least 2 characters long',
    ],
    [error({ instancePath: '/page', keyword: 'minimum', params: { limit: 1 } }), 'page must be at least 1'],
    [
      error({ instancePath: '/size', keyword: 'maximum', params: { limit: 1000 } }),
      'size must be at most 1000',
    ],
    [
      error({ instancePath: '/code', keyword: 'pattern', params: { pattern: '^a' } }),
      'code has an invalid format',
    ],
    [
      error({ instancePath: '/mail', keyword: 'format', params: { format: 'email' } }),
      'mail is not a valid email',
    ],
    [
      error({ instancePath: '/size', keyword: 'enum', params: { allowedValues: ['medium', 'small'] } }),
      'size must be one of: medium, small',
    ],
    [
      error({ keyword: 'additionalProperties', params: { additionalProperty: 'extra' } }),
      'extra is not an allowed field',
    ],
    [
      error({ instancePath: '/items/0/name', keyword: 'maxLength', params: { limit: 5 } }),
      'items[0].name must be at most 5 characters long',
    ],
    [
      error({ instancePath: '/x', keyword: 'anyOf', message: 'must match a schema in anyOf' }),
      'x is invalid: must match a schema in anyOf',
    ],
  ])('%#', (e, message) => {
    expect(describeValidationError(e, 'body', 'en')).toBe(message);
  });

  it('names the request part when the whole of it is wrong, in Chinese by default', () => {
    expect(describeValidationError(error({ params: { type: 'object' } }), 'body', 'zh')).toBe(
      '字段 请求体 应为对象',
    );
  });
});
