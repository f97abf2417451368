import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import zh from './zh.json';

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([k, v]) =>
      typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flatten(v, `${prefix}${k}.`)),
    ),
  );
const locales = { zh: flatten(zh), en: flatten(en), es: flatten(es) };
const placeholders = (s: string) => (s.match(/{{\s*\w+\s*}}/g) ?? []).sort();

describe('regions locales', () => {
  it('have one top-level key and the same keys, non-empty, in zh, en and es', () => {
    for (const bundle of [zh, en, es]) expect(Object.keys(bundle)).toEqual(['regions']);
    const keys = Object.keys(locales.zh).sort();
    expect(Object.keys(locales.en).sort()).toEqual(keys);
    expect(Object.keys(locales.es).sort()).toEqual(keys);
    for (const [lang, entries] of Object.entries(locales)) {
      for (const [key, value] of Object.entries(entries)) expect(value.trim(), `${lang}:${key}`).not.toBe('');
    }
  });

  it('keep the placeholders and the spec wording', () => {
    for (const [key, value] of Object.entries(locales.zh)) {
      expect(placeholders(locales.en[key]!), key).toEqual(placeholders(value));
      expect(placeholders(locales.es[key]!), key).toEqual(placeholders(value));
    }
    expect(locales.zh['regions.title']).toBe('区域管理');
  });
});
