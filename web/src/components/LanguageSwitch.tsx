import { TranslationOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@kilowatch/contract';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUi } from '../lib/ui-store.ts';
import { switchLanguage } from './switch-language.ts';

/** zh / en / es switch (spec §2); the choice is kept in a cookie. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const language = useUi((s) => s.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((l) => ({ key: l, label: t(`language.${l}`), disabled: l === language })),
        onClick: ({ key }) => void switchLanguage(key as Language),
      }}
    >
      <Button
        type="text"
        icon={<TranslationOutlined />}
        aria-label={t('navbar.language')}
        data-testid="language-switch"
      />
    </Dropdown>
  );
}
