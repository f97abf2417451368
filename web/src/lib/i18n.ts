import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@kilowatch/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import zh from '../locales/zh.json';
import { cookieStorage } from './storage.ts';

type Messages = { [key: string]: string | Messages };

/**
 * Shell strings live in src/locales; each feature (and shared component group) keeps its own
 * beside its code in features/<domain>/locales/{zh,en,es}.json or components/<group>/locales,
 * under one top-level key named for it.
 */
const zhFeatureLocales = import.meta.glob<Messages>(
  ['../features/*/locales/zh.json', '../components/*/locales/zh.json'],
  { eager: true, import: 'default' },
);
// en and es load when chosen: the login page's first load carries one language, not three.
const shellLocales = import.meta.glob<Messages>(['../locales/en.json', '../locales/es.json'], {
  import: 'default',
});
const featureLocales = import.meta.glob<Messages>(
  ['../features/*/locales/*.json', '../components/*/locales/*.json', '!**/zh.json'],
  { import: 'default' },
);

const merge = (shell: Messages, features: Messages[]): Messages => Object.assign({ ...shell }, ...features);

/** The shell's and every feature's messages in `language`. */
export async function loadMessages(language: Language): Promise<Messages> {
  if (language === 'zh') return merge(zh, Object.values(zhFeatureLocales));
  const suffix = `/${language}.json`;
  const pick = (modules: typeof featureLocales) =>
    Promise.all(
      Object.entries(modules)
        .filter(([path]) => path.endsWith(suffix))
        .map(([, load]) => load()),
    );
  const [[shell], features] = await Promise.all([pick(shellLocales), pick(featureLocales)]);
  return merge(shell ?? {}, features);
}

export const isLanguage = (v: unknown): v is Language => LANGUAGES.includes(v as Language);

export const initialLanguage = (): Language => {
  const saved = cookieStorage.get('language');
  return isLanguage(saved) ? saved : DEFAULT_LANGUAGE;
};

/** Resolves once the first language's messages are in: main.tsx renders after it. */
export const i18nReady = i18n
  .use(initReactI18next)
  .use({
    type: 'backend',
    init() {},
    read(language: string, _namespace: string, done: (error: unknown, messages: Messages | null) => void) {
      if (!isLanguage(language)) return done(null, {});
      loadMessages(language).then(
        (messages) => done(null, messages),
        (error: unknown) => done(error, null),
      );
    },
  })
  .init({
    resources: { zh: { translation: merge(zh, Object.values(zhFeatureLocales)) } },
    partialBundledLanguages: true,
    lng: initialLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    interpolation: { escapeValue: false },
    returnNull: false,
  });

export const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

export default i18n;
