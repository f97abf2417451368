import {
  DeleteOutlined,
  DragOutlined,
  EditOutlined,
  FileAddOutlined,
  FileTextOutlined,
  FolderAddOutlined,
  FolderOutlined,
} from '@ant-design/icons';
import type { ReportNode } from '@kilowatch/contract';
import { App, Button, Card, Empty, Form, Input, Modal, Space, Tag, Tooltip, Tree, TreeSelect } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateReportNode, useDeleteReportNode, usePatchReportNode } from '../../../../api/reports.ts';
import { validValues } from '../../../../lib/form.ts';
import { ancestors, firstFolder, flatten, parentForNew, subtreeIds } from '../lib/tree.ts';

export interface ReportTreeProps {
  tree: ReportNode[];
  loading: boolean;
  selected: ReportNode | null;
  onSelect: (node: ReportNode | null) => void;
  canEdit: boolean;
  admin: boolean;
}

type Dialog =
  | { kind: 'create'; folder: boolean; parentId: number }
  | { kind: 'rename'; node: ReportNode }
  | { kind: 'move'; node: ReportNode };

const ROOT_KEY = 0;

interface TreeOption {
  value: number;
  title: string;
  children: TreeOption[];
}

/**
 * The report folders (spec §2: the first folder expanded): create folders and reports, rename,
 * move to another folder or the top level, delete with everything under it after confirmation.
 */
export function ReportTree({ tree, loading, selected, onSelect, canEdit, admin }: ReportTreeProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const create = useCreateReportNode();
  const patch = usePatchReportNode();
  const remove = useDeleteReportNode();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [expanded, setExpanded] = useState<number[] | null>(null);
  const [form] = Form.useForm<{ name: string; parentId: number }>();

  // Once the tree is there: the first folder open, and the way down to a linked report.
  useEffect(() => {
    if (expanded !== null || tree.length === 0) return;
    const first = firstFolder(tree);
    const path = selected ? ancestors(tree, selected.id) : [];
    setExpanded([...(first ? [first.id] : []), ...path]);
  }, [tree, selected, expanded]);

  const data = useMemo<DataNode[]>(() => {
    const toData = (n: ReportNode): DataNode => ({
      key: n.id,
      title: (
        <span data-testid={`kpi-node-${n.id}`}>
          {n.name}
          {n.published && (
            <Tag color="green" style={{ marginInlineStart: 6 }}>
              {t('kpi.published')}
            </Tag>
          )}
        </span>
      ),
      icon: n.folder ? <FolderOutlined /> : <FileTextOutlined />,
      isLeaf: !n.folder,
      children: n.children.map(toData),
    });
    return tree.map(toData);
  }, [tree, t]);

  const folders = useMemo(() => {
    const blocked = dialog?.kind === 'move' ? subtreeIds(dialog.node) : new Set<number>();
    const toOption = (n: ReportNode): TreeOption | null =>
      n.folder && !blocked.has(n.id)
        ? {
            value: n.id,
            title: n.name,
            children: n.children.map(toOption).filter((c): c is TreeOption => c !== null),
          }
        : null;
    return [
      {
        value: ROOT_KEY,
        title: t('kpi.tree.top'),
        children: tree.map(toOption).filter((c): c is TreeOption => c !== null),
      },
    ];
  }, [tree, dialog, t]);

  const open = (next: Dialog) => {
    setDialog(next);
    form.setFieldsValue(
      next.kind === 'create'
        ? { name: '', parentId: next.parentId }
        : { name: next.node.name, parentId: next.node.parentId ?? ROOT_KEY },
    );
  };

  const submit = async () => {
    if (!dialog) return;
    const values = await validValues(form);
    if (!values) return;
    if (dialog.kind === 'create') {
      const node = await create.mutateAsync({
        parentId: dialog.parentId,
        input: { name: values.name, folder: dialog.folder },
      });
      message.success(t('kpi.created'));
      if (dialog.parentId !== ROOT_KEY) setExpanded((keys) => [...(keys ?? []), dialog.parentId]);
      onSelect(node);
    } else if (dialog.kind === 'rename') {
      await patch.mutateAsync({ id: dialog.node.id, patch: { name: values.name } });
      message.success(t('kpi.saved'));
    } else {
      await patch.mutateAsync({ id: dialog.node.id, patch: { parentId: values.parentId } });
      message.success(t('kpi.saved'));
    }
    setDialog(null);
  };

  const confirmDelete = (node: ReportNode) => {
    const count = flatten([node]).length - 1;
    modal.confirm({
      title: t('kpi.tree.deleteTitle', { name: node.name }),
      content: node.folder ? t('kpi.tree.deleteFolder', { count }) : t('kpi.tree.deleteReport'),
      okButtonProps: { danger: true },
      okText: t('kpi.delete'),
      onOk: async () => {
        await remove.mutateAsync(node.id);
        message.success(t('kpi.deleted'));
        if (selected && subtreeIds(node).has(selected.id)) onSelect(null);
      },
    });
  };

  // A published report (or a folder holding one) is read-only for editors: the server says 409.
  const locked = (node: ReportNode | null) => !node || (!admin && flatten([node]).some((n) => n.published));

  return (
    <Card
      size="small"
      title={t('kpi.tree.title')}
      styles={{ body: { padding: 8 } }}
      extra={
        canEdit && (
          <Space size={0}>
            <Tooltip title={t('kpi.tree.newFolder')}>
              <Button
                type="text"
                icon={<FolderAddOutlined />}
                aria-label={t('kpi.tree.newFolder')}
                onClick={() => open({ kind: 'create', folder: true, parentId: parentForNew(selected) })}
              />
            </Tooltip>
            <Tooltip title={t('kpi.tree.newReport')}>
              <Button
                type="text"
                icon={<FileAddOutlined />}
                aria-label={t('kpi.tree.newReport')}
                onClick={() => open({ kind: 'create', folder: false, parentId: parentForNew(selected) })}
              />
            </Tooltip>
            <Tooltip title={t('kpi.tree.rename')}>
              <Button
                type="text"
                icon={<EditOutlined />}
                aria-label={t('kpi.tree.rename')}
                disabled={locked(selected)}
                onClick={() => selected && open({ kind: 'rename', node: selected })}
              />
            </Tooltip>
            <Tooltip title={t('kpi.tree.move')}>
              <Button
                type="text"
                icon={<DragOutlined />}
                aria-label={t('kpi.tree.move')}
                disabled={locked(selected)}
                onClick={() => selected && open({ kind: 'move', node: selected })}
              />
            </Tooltip>
            <Tooltip title={t('kpi.delete')}>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('kpi.delete')}
                disabled={locked(selected)}
                onClick={() => selected && confirmDelete(selected)}
              />
            </Tooltip>
          </Space>
        )
      }
    >
      {tree.length === 0 && !loading ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('kpi.tree.empty')} />
      ) : (
        <Tree
          showIcon
          blockNode
          treeData={data}
          expandedKeys={expanded ?? []}
          onExpand={(keys) => setExpanded(keys.map(Number))}
          selectedKeys={selected ? [selected.id] : []}
          onSelect={(keys) => {
            const id = Number(keys[0]);
            onSelect(flatten(tree).find((n) => n.id === id) ?? null);
          }}
        />
      )}
      <Modal
        open={dialog !== null}
        title={
          dialog?.kind === 'create'
            ? t(dialog.folder ? 'kpi.tree.newFolder' : 'kpi.tree.newReport')
            : dialog?.kind === 'rename'
              ? t('kpi.tree.rename')
              : t('kpi.tree.move')
        }
        onOk={submit}
        onCancel={() => setDialog(null)}
        confirmLoading={create.isPending || patch.isPending}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          {dialog?.kind === 'move' ? (
            <Form.Item name="parentId" label={t('kpi.tree.target')} rules={[{ required: true }]}>
              <TreeSelect treeData={folders} treeDefaultExpandAll fieldNames={{ label: 'title' }} />
            </Form.Item>
          ) : (
            <Form.Item
              name="name"
              label={t('kpi.tree.name')}
              rules={[
                { required: true, whitespace: true, message: t('kpi.tree.nameRequired') },
                { max: 64, message: t('kpi.tree.nameTooLong', { max: 64 }) },
              ]}
            >
              <Input autoFocus maxLength={64} />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </Card>
  );
}
