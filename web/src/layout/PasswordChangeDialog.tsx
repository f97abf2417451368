import { PASSWORD_MAX, PASSWORD_PATTERN } from '@kilowatch/contract';
import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { changePassword } from '../api/auth.ts';
import { HttpError } from '../lib/http.ts';
import { notify } from '../lib/notify.ts';

interface Values {
  currentPassword: string;
  newPassword: string;
  confirm: string;
}

/**
 * The user menu's "change password": current password, new one (the login page's 6–20 rule)
 * twice. A wrong current password shows under its field; anything else (e.g. too many attempts)
 * as a toast.
 */
export function PasswordChangeDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const change = useMutation({
    mutationFn: ({ currentPassword, newPassword }: Values) =>
      changePassword({ currentPassword, newPassword }),
    onSuccess: () => {
      notify.success(t('passwordChange.done'));
      onClose();
    },
    onError: (error) => {
      if (error instanceof HttpError && error.status === 400) {
        form.setFields([{ name: 'currentPassword', errors: [error.message] }]);
      } else if (!(error instanceof HttpError && (error.kind === 'canceled' || error.kind === 'session'))) {
        notify.error(error.message);
      }
    },
  });
  const rule = [
    { required: true, message: t('login.passwordRule') },
    { pattern: PASSWORD_PATTERN, message: t('login.passwordRule') },
  ];
  return (
    <Modal
      open={open}
      title={t('passwordChange.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('passwordChange.hint')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={(values) => change.mutate(values)}
        data-testid="password-change-form"
      >
        <Form.Item
          name="currentPassword"
          label={t('passwordChange.current')}
          rules={[{ required: true, message: t('passwordChange.currentRequired') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="newPassword" label={t('passwordChange.new')} rules={rule}>
          <Input.Password maxLength={PASSWORD_MAX} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('passwordChange.confirm')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('login.passwordRule') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value === getFieldValue('newPassword')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('passwordChange.mismatch'))),
            }),
          ]}
        >
          <Input.Password maxLength={PASSWORD_MAX} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
