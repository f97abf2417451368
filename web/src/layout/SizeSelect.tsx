import { ColumnHeightOutlined } from '@ant-design/icons';
import { SIZES, type Size } from '@kilowatch/contract';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUi } from '../app/ui-store.ts';
import { notify } from '../lib/notify.ts';

export function SizeSelect() {
  const { t } = useTranslation();
  const size = useUi((s) => s.size);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((s) => ({ key: s, label: t(`size.${s}`), disabled: s === size })),
        onClick: ({ key }) => {
          useUi.getState().setSize(key as Size);
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
