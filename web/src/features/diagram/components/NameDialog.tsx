import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validValues } from '../../../lib/form.ts';

export interface NameDialogProps {
  title: string;
  initial: string;
  onCancel: () => void;
  /** Rejects (the server's message is already shown) to keep the dialog open. */
  onSubmit: (name: string) => Promise<void>;
}

/** Names a new diagram or renames one. */
export function NameDialog({ title, initial, onCancel, onSubmit }: NameDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    const { name } = values;
    setBusy(true);
    try {
      await onSubmit(name.trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={title}
      onCancel={onCancel}
      onOk={() => void submit()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'diagram-name-ok' }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ name: initial }} onFinish={() => void submit()}>
        <Form.Item
          name="name"
          label={t('diagram.name')}
          rules={[
            { required: true, whitespace: true, message: t('diagram.nameRequired') },
            { max: 64, message: t('diagram.nameTooLong', { max: 64 }) },
          ]}
        >
          <Input autoFocus maxLength={64} data-testid="diagram-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
