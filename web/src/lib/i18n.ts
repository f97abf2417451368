import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@kilowatch/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import es from '../locales/es.json';
import zh from '../locales/zh.json';
import { cookieStorage } from './storage.ts';

export const resources = {
  zh: { translation: zh },
  en: { translation: en },
  es: { translation: es },
} as const;

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
