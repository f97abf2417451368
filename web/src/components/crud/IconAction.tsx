import { Button, type ButtonProps, Tooltip } from 'antd';
import type { ReactNode } from 'react';

/**
 * A row action as its icon alone, its name on hover and to screen readers: a table with many
 * actions keeps its fixed actions column narrow in every language.
 * @example <IconAction label={t('crud.edit')} icon={<EditOutlined />} onClick={edit} />
 */
export function IconAction({
  label,
  icon,
  ...button
}: { label: string; icon: ReactNode } & Pick<ButtonProps, 'onClick' | 'href' | 'danger'> & {
    'data-testid'?: string;
  }) {
  return (
    <Tooltip title={label}>
      <Button size="small" type="link" icon={icon} aria-label={label} {...button} />
    </Tooltip>
  );
}
