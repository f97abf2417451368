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
// en and es load when chosen: the login page's first load carries one language, not three.
const shellLocales = import.meta.glob<Messages>(['../locales/en.json', '../locales/es.json'], {
  import: 'default',
});
// Features' messages load beside the first render, not in it: the login page shows only the
// shell's, and every screen waits for them (featureMessagesReady, lib/lazy-screen.tsx).
const featureLocales = import.meta.glob<Messages>(
  ['../features/*/locales/*.json', '../components/*/locales/*.json'],
  { import: 'default' },
);

const merge = (shell: Messages, features: Messages[]): Messages => Object.assign({ ...shell }, ...features);

const pick = <T>(modules: Record<string, () => Promise<T>>, language: Language) =>
  Promise.all(
    Object.entries(modules)
      .filter(([path]) => path.endsWith(`/${language}.json`))
      .map(([, load]) => load()),
  );

/** Every feature's messages in `language`, merged. */
const featureMessages = async (language: Language): Promise<Messages> =>
  merge({}, await pick(featureLocales, language));

/** The shell's and every feature's messages in `language`. */
export async function loadMessages(language: Language): Promise<Messages> {
  const [shell, features] = await Promise.all([
    language === 'zh' ? zh : pick(shellLocales, language).then(([m]) => m ?? {}),
    featureMessages(language),
  ]);
  return merge(shell, [features]);
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
    resources: { zh: { translation: zh } },
    partialBundledLanguages: true,
    lng: initialLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    interpolation: { escapeValue: false },
    returnNull: false,
    // Screens re-render when messages are added (the features' zh, after the first render).
    react: { bindI18nStore: 'added' },
  });

/**
 * The features' Chinese messages: the shell's are bundled, these follow the first render. Other
 * languages arrive whole through the backend above. Screens await this before they show.
 */
const zhFeatures = featureMessages('zh').then((messages) => {
  i18n.addResourceBundle('zh', 'translation', messages, true, false);
});

/** Resolves once every feature's messages are in (for the bundled Chinese; others come whole). */
export const featureMessagesReady = (): Promise<void> => zhFeatures;

export const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

export default i18n;
