import { DeleteOutlined, EditOutlined, HolderOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A grid card's title with the drag handle when the grid is writable (the grid drags by
 * `.kpi-drag`): the KPI components' cards and the board's device tiles alike.
 */
export function CardTitle({ title, writable }: { title: string; writable: boolean }) {
  const { t } = useTranslation();
  return (
    <Space size={4}>
      {writable && (
        <HolderOutlined
          className="kpi-drag"
          style={{ cursor: 'move' }}
          aria-label={t('reportGrid.component.drag')}
        />
      )}
      <span>{title}</span>
    </Space>
  );
}

/** A grid card's edit and delete buttons (kept out of the drag by their holder's `.kpi-no-drag`). */
export function CardActions({ onEdit, onDelete }: { onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Button
        size="small"
        type="text"
        icon={<EditOutlined />}
        aria-label={t('reportGrid.component.edit')}
        onClick={onEdit}
      />
      <Button
        size="small"
        type="text"
        danger
        icon={<DeleteOutlined />}
        aria-label={t('reportGrid.component.delete')}
        onClick={onDelete}
      />
    </>
  );
}
