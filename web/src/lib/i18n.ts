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
// Features' messages load after login, with the first screen or the layout (featureMessagesReady):
// the login page shows only the shell's.
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

const shellMessages = async (language: Language): Promise<Messages> =>
  language === 'zh' ? zh : pick(shellLocales, language).then(([m]) => m ?? {});

/** The shell's and every feature's messages in `language`. */
export async function loadMessages(language: Language): Promise<Messages> {
  const [shell, features] = await Promise.all([shellMessages(language), featureMessages(language)]);
  return merge(shell, [features]);
}

/** Set by the first screen or the layout: from then on every language loads whole. */
let featuresWanted = false;
/** The languages whose features' messages are in i18next (or on their way). */
const featuresLoaded = new Map<Language, Promise<void>>();

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
      // A language chosen once screens are showing arrives whole, so no screen shows a key.
      const whole = featuresWanted;
      (whole ? loadMessages(language) : shellMessages(language)).then(
        (messages) => {
          if (whole) featuresLoaded.set(language, Promise.resolve());
          done(null, messages);
        },
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

/** Adds every feature's messages in `language` to i18next, once. */
function addFeatureMessages(language: Language): Promise<void> {
  let loaded = featuresLoaded.get(language);
  if (!loaded) {
    loaded = featureMessages(language).then((messages) => {
      i18n.addResourceBundle(language, 'translation', messages, true, false);
    });
    featuresLoaded.set(language, loaded);
  }
  return loaded;
}

// A language whose shell-only load was under way when the features were first wanted.
i18n.on('languageChanged', (language) => {
  if (featuresWanted && isLanguage(language)) void addFeatureMessages(language);
});

/**
 * Loads every feature's messages in the current language (the first call after login; later ones
 * return at once) and resolves once they are in. Screens and the layout await it before they show.
 */
export const featureMessagesReady = (): Promise<void> => {
  featuresWanted = true;
  return addFeatureMessages(currentLanguage());
};

export const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

export default i18n;
