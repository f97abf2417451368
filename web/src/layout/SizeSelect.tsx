import { ColumnHeightOutlined } from '@ant-design/icons';
import { SIZES, type Size } from '@kilowatch/contract';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../lib/notify.ts';
import { THEMES, type Theme, useUi } from '../lib/ui-store.ts';

export function SizeSelect() {
  const { t } = useTranslation();
  const size = useUi((s) => s.size);
  const theme = useUi((s) => s.theme);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size, `theme:${theme}`],
        items: [
          ...SIZES.map((s) => ({ key: s, label: t(`size.${s}`), disabled: s === size })),
          { type: 'divider' as const },
          {
            type: 'group' as const,
            label: t('theme.label'),
            children: THEMES.map((th) => ({
              key: `theme:${th}`,
              label: t(`theme.${th}`),
              disabled: th === theme,
              'data-testid': `theme-${th}`,
            })),
          },
        ],
        onClick: ({ key }) => {
          if (key.startsWith('theme:')) useUi.getState().setTheme(key.slice('theme:'.length) as Theme);
          else useUi.getState().setSize(key as Size);
          notify.success(t('toast.done'));
        },
      }}
    >
      <Button
        type="text"
        icon={<ColumnHeightOutlined />}
        aria-label={t('navbar.size')}
        data-testid="size-select"
      />
    </Dropdown>
  );
}
