import type { RegionNode } from '@kilowatch/contract';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCreateRegion, useUpdateRegion } from '../../../api/regions.ts';
import { notify } from '../../../lib/notify.ts';

/** What the region dialog does: add under `parent` (null: a root), or rename `node`. */
export type RegionDialog = { mode: 'create'; parent: RegionNode | null } | { mode: 'edit'; node: RegionNode };

interface Values {
  name: string;
  description?: string;
}

export function RegionFormModal({
  dialog,
  onClose,
  onCreated,
}: {
  dialog: RegionDialog | null;
  onClose(): void;
  onCreated?(parentId: number | null): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const create = useCreateRegion();
  const update = useUpdateRegion();

  const title =
    dialog?.mode === 'edit'
      ? t('regions.form.editTitle')
      : dialog?.parent
        ? t('regions.form.createChildTitle', { parent: dialog.parent.name })
        : t('regions.form.createTitle');

  const onFinish = async (v: Values) => {
    if (!dialog) return;
    const input = { name: v.name.trim(), description: v.description?.trim() ?? '' };
    try {
      if (dialog.mode === 'edit') {
        await update.mutateAsync({ id: dialog.node.id, input });
        notify.success(t('toast.updated'));
      } else {
        const parentId = dialog.parent?.id ?? null;
        await create.mutateAsync({ ...input, parentId });
        notify.success(t('toast.created'));
        onCreated?.(parentId);
      }
      onClose();
    } catch {
      // The http module has shown the server's message; the dialog stays open to fix the input.
    }
  };

  return (
    <Modal
      open={dialog != null}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending || update.isPending}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={onFinish}
        initialValues={
          dialog?.mode === 'edit'
            ? { name: dialog.node.name, description: dialog.node.description }
            : undefined
        }
      >
        <Form.Item
          name="name"
          label={t('regions.form.name')}
          rules={[
            { required: true, whitespace: true, message: t('regions.form.nameRequired') },
            { max: 64, message: t('regions.form.nameMax') },
          ]}
        >
          <Input maxLength={64} autoFocus />
        </Form.Item>
        <Form.Item name="description" label={t('regions.form.description')}>
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
