import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import es from './locales/es.json';
import zh from './locales/zh.json';

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([k, v]) =>
      typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flatten(v, `${prefix}${k}.`)),
    ),
  );

const locales = { zh: flatten(zh), en: flatten(en), es: flatten(es) };

describe('device locales', () => {
  it('hold one top-level key, devices', () => {
    for (const bundle of [zh, en, es]) expect(Object.keys(bundle)).toEqual(['devices']);
  });

  it('zh, en and es have exactly the same keys and no empty string', () => {
    const keys = Object.keys(locales.zh).sort();
    expect(Object.keys(locales.en).sort()).toEqual(keys);
    expect(Object.keys(locales.es).sort()).toEqual(keys);
    for (const [lang, entries] of Object.entries(locales))
      for (const [key, value] of Object.entries(entries)) expect(value.trim(), `${lang}:${key}`).not.toBe('');
  });

  it('interpolation placeholders match across languages', () => {
    const placeholders = (s: string) => (s.match(/{{\s*\w+\s*}}/g) ?? []).sort();
    for (const [key, value] of Object.entries(locales.zh)) {
      expect(placeholders(locales.en[key] ?? ''), `en:${key}`).toEqual(placeholders(value));
      expect(placeholders(locales.es[key] ?? ''), `es:${key}`).toEqual(placeholders(value));
    }
  });
});
