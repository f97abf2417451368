import type { Language } from '@kilowatch/contract';
import i18n from '../lib/i18n.ts';
import { notify } from '../lib/notify.ts';
import { useUi } from '../lib/ui-store.ts';

/** Switches the console's language, keeps the choice (cookie) and says so. */
export async function switchLanguage(language: Language) {
  await i18n.changeLanguage(language);
  useUi.getState().setLanguage(language);
  document.documentElement.lang = language;
  notify.success(i18n.t('toast.languageSwitched'));
}
