import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@kilowatch/contract';
import { en } from './en.ts';
import { es } from './es.ts';
import type { MessageKey, MessageParams, Messages } from './messages.ts';
import { zh } from './zh.ts';

export type { MessageKey, MessageParams } from './messages.ts';

const CATALOGUES: Record<Language, Messages> = { zh, en, es };

const isLanguage = (tag: string): tag is Language => (LANGUAGES as readonly string[]).includes(tag);

/**
 * The request's language from Accept-Language: the supported one with the highest q, by primary
 * subtag (`zh-CN` → zh). `fallback` (Chinese unless a route says otherwise) when the header
 * names none of them.
 * @example pickLanguage('fr;q=1, en-GB;q=0.8, es;q=0.5') // 'en'
 */
export function pickLanguage(header: string | undefined, fallback: Language = DEFAULT_LANGUAGE): Language {
  if (!header) return fallback;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return {
        tag: tag.trim().toLowerCase().split('-')[0] ?? '',
        weight: Number.isNaN(weight) ? 0 : weight,
        index,
      };
    })
    .filter((entry) => entry.weight > 0 && isLanguage(entry.tag))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const best = ranked[0]?.tag;
  return best !== undefined && isLanguage(best) ? best : fallback;
}

/** The message for `key` in `language`, with `{name}` placeholders filled from `params`. */
export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  return CATALOGUES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export const isMessageKey = (key: string): key is MessageKey => key in zh;
