import { LANGUAGES } from '@kilowatch/contract';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUi } from '../lib/ui-store.ts';
import { switchLanguage } from './switch-language.ts';

/**
 * The login page's language choice: the three names as buttons, since a menu (antd Dropdown,
 * Menu, Tooltip) would add a fifth to the page's first load.
 */
export function LanguageButtons({ className }: { className?: string }) {
  const language = useUi((s) => s.language);
  const { t } = useTranslation();
  return (
    <nav aria-label={t('navbar.language')} className={className}>
      {LANGUAGES.map((l) => (
        <Button
          key={l}
          type="text"
          size="small"
          lang={l}
          aria-current={l === language ? 'true' : undefined}
          onClick={() => (l === language ? undefined : void switchLanguage(l))}
        >
          {t(`language.${l}`)}
        </Button>
      ))}
    </nav>
  );
}
