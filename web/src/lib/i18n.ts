import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@kilowatch/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import es from '../locales/es.json';
import zh from '../locales/zh.json';
import { cookieStorage } from './storage.ts';

type Messages = { [key: string]: string | Messages };

/**
 * Shell strings live in src/locales; each feature (and shared component group) keeps its own
 * beside its code in features/<domain>/locales/{zh,en,es}.json or components/<group>/locales,
 * under one top-level key named for it.
 */
const featureLocales = import.meta.glob<Messages>(
  ['../features/*/locales/*.json', '../components/*/locales/*.json'],
  { eager: true, import: 'default' },
);

function messagesFor(language: Language, shell: Messages): Messages {
  const merged: Messages = { ...shell };
  for (const [path, messages] of Object.entries(featureLocales)) {
    if (path.endsWith(`/${language}.json`)) Object.assign(merged, messages);
  }
  return merged;
}

export const resources = {
  zh: { translation: messagesFor('zh', zh) },
  en: { translation: messagesFor('en', en) },
  es: { translation: messagesFor('es', es) },
};

export const isLanguage = (v: unknown): v is Language => LANGUAGES.includes(v as Language);

export const initialLanguage = (): Language => {
  const saved = cookieStorage.get('language');
  return isLanguage(saved) ? saved : DEFAULT_LANGUAGE;
};

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

export default i18n;
