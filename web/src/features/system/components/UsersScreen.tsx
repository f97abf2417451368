import { KeyOutlined } from '@ant-design/icons';
import { PASSWORD_MAX, PASSWORD_PATTERN, type User, type UserCreate } from '@kilowatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Select, Space, Switch, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import {
  createUser,
  deleteUser,
  getUsers,
  resetUserPassword,
  toUserUpdate,
  updateUser,
  useGroupOptions,
  useRoleOptions,
} from '../../../api/system.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { useConfirmAction } from '../../../components/crud/confirm-delete.tsx';
import { notify } from '../../../lib/notify.ts';

/** Spec §4: userLevel 1 is admin, above 1 editor. */
export const USER_LEVELS = [
  { value: 1, key: 'admin' },
  { value: 2, key: 'editor' },
] as const;

const levelKey = (level: number | null) => (level == null ? 'none' : level === 1 ? 'admin' : 'editor');

/** Form values of the create/edit dialog (`password` only when creating). */
export type UserFormValues = UserCreate;

/** Carries a field the dialog does not show (kept so PUT does not reset it). */
const KeepValue = (_: { value?: unknown }) => null;

const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{2,32}$/;

function PasswordResetModal({ user, onClose }: { user: User | null; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const reset = useMutation({
    mutationFn: ({ password }: { password: string }) => resetUserPassword(user!.id, { password }),
    onSuccess: () => {
      notify.success(t('toast.updated'));
      onClose();
    },
  });
  return (
    <Modal
      open={user != null}
      title={t('system.user.resetPasswordTitle', { name: user?.username ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={reset.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('system.user.resetPasswordHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false} onFinish={(v) => reset.mutate(v)}>
        <Form.Item
          name="password"
          label={t('system.user.fields.password')}
          rules={[
            { required: true, message: t('system.user.passwordRule') },
            { pattern: PASSWORD_PATTERN, message: t('system.user.passwordRule') },
          ]}
        >
          <Input.Password maxLength={PASSWORD_MAX} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('system.user.fields.confirmPassword')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('system.user.passwordRule') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('system.user.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password maxLength={PASSWORD_MAX} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** /sys_management/user: users with their level, roles, groups and status. */
/** Tags naming the ids (roles, groups); an id the lookup lacks shows as #id. */
const nameTags = (ids: readonly number[], names: ReadonlyMap<number, string>) => (
  <Space size={[0, 4]} wrap>
    {ids.map((id) => (
      <Tag key={id}>{names.get(id) ?? `#${id}`}</Tag>
    ))}
  </Space>
);

export function UsersScreen() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const queryClient = useQueryClient();
  const roles = useRoleOptions();
  const groups = useGroupOptions();
  const [resetting, setResetting] = useState<User | null>(null);

  const roleNames = useMemo(() => new Map((roles.data ?? []).map((r) => [r.id, r.name])), [roles.data]);
  const groupNames = useMemo(() => new Map((groups.data ?? []).map((g) => [g.id, g.name])), [groups.data]);

  const toggle = useMutation({
    mutationFn: (user: User) => updateUser(user.id, toUserUpdate(user, { disabled: !user.disabled })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.users.all });
    },
  });

  const confirmToggle = (user: User) =>
    confirm({
      title: user.disabled ? t('system.user.status.enabled') : t('system.user.status.disabled'),
      content: t(user.disabled ? 'system.user.enableConfirm' : 'system.user.disableConfirm', {
        name: user.username,
      }),
      okText: t('common.confirm'),
      done: t('toast.done'),
      danger: !user.disabled,
      onOk: () => toggle.mutateAsync(user),
    });

  const required = (field: string) => ({ required: true, message: t('system.common.required', { field }) });

  return (
    <>
      <CrudPage<User, UserFormValues>
        queryKey={keys.users.all}
        title={t('system.user.title')}
        searchPlaceholder={t('system.user.searchPlaceholder')}
        fetchPage={(p) => getUsers({ page: p.page, pageSize: p.pageSize, name: p.name || undefined })}
        describeRow={(u) => u.username}
        columns={[
          { title: t('system.user.fields.username'), dataIndex: 'username' },
          { title: t('system.user.fields.name'), dataIndex: 'name' },
          {
            title: t('system.user.fields.userLevel'),
            dataIndex: 'userLevel',
            render: (level: number | null) => (
              <Tag color={level === 1 ? 'gold' : level == null ? 'default' : 'blue'}>
                {t(`system.user.level.${levelKey(level)}`)}
              </Tag>
            ),
          },
          {
            title: t('system.user.fields.roles'),
            dataIndex: 'roleIds',
            render: (ids: number[]) => nameTags(ids, roleNames),
          },
          {
            title: t('system.user.fields.groups'),
            dataIndex: 'groupIds',
            render: (ids: number[]) => nameTags(ids, groupNames),
          },
          {
            title: t('system.user.fields.status'),
            dataIndex: 'disabled',
            render: (disabled: boolean, user) => (
              <Switch
                size="small"
                checked={!disabled}
                checkedChildren={t('system.user.status.enabled')}
                unCheckedChildren={t('system.user.status.disabled')}
                loading={toggle.isPending && toggle.variables?.id === user.id}
                onChange={() => confirmToggle(user)}
                aria-label={t('system.user.fields.status')}
              />
            ),
          },
        ]}
        rowActions={(user) => (
          <Button size="small" type="link" icon={<KeyOutlined />} onClick={() => setResetting(user)}>
            {t('system.user.resetPassword')}
          </Button>
        )}
        toFormValues={(u) => ({
          username: u.username,
          name: u.name,
          userLevel: u.userLevel,
          roleIds: u.roleIds,
          groupIds: u.groupIds,
          disabled: u.disabled,
          avatar: u.avatar,
          introduction: u.introduction,
        })}
        create={(v) =>
          createUser({
            username: v.username.trim(),
            password: v.password,
            name: v.name.trim(),
            userLevel: v.userLevel,
            roleIds: v.roleIds ?? [],
            groupIds: v.groupIds ?? [],
          })
        }
        update={(id, v) =>
          updateUser(id, {
            name: v.name.trim(),
            userLevel: v.userLevel,
            roleIds: v.roleIds ?? [],
            groupIds: v.groupIds ?? [],
            disabled: v.disabled,
            avatar: v.avatar,
            introduction: v.introduction,
          })
        }
        remove={(u) => deleteUser(u.id)}
        renderForm={(_form, editing) => (
          <>
            <Form.Item
              name="username"
              label={t('system.user.fields.username')}
              rules={[
                required(t('system.user.fields.username')),
                { pattern: USERNAME_PATTERN, message: t('system.user.usernameRule') },
              ]}
            >
              <Input disabled={editing != null} autoComplete="off" maxLength={32} />
            </Form.Item>
            {editing == null && (
              <Form.Item
                name="password"
                label={t('system.user.fields.password')}
                rules={[
                  { required: true, message: t('system.user.passwordRule') },
                  { pattern: PASSWORD_PATTERN, message: t('system.user.passwordRule') },
                ]}
              >
                <Input.Password maxLength={PASSWORD_MAX} autoComplete="new-password" />
              </Form.Item>
            )}
            <Form.Item
              name="name"
              label={t('system.user.fields.name')}
              rules={[
                required(t('system.user.fields.name')),
                {
                  whitespace: true,
                  message: t('system.common.required', { field: t('system.user.fields.name') }),
                },
              ]}
            >
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item
              name="userLevel"
              label={t('system.user.fields.userLevel')}
              initialValue={2}
              rules={[
                {
                  required: true,
                  message: t('system.common.requiredSelect', { field: t('system.user.fields.userLevel') }),
                },
              ]}
            >
              <Select
                options={USER_LEVELS.map((l) => ({ value: l.value, label: t(`system.user.level.${l.key}`) }))}
              />
            </Form.Item>
            <Form.Item name="roleIds" label={t('system.user.fields.roles')} initialValue={[]}>
              <Select
                mode="multiple"
                allowClear
                loading={roles.isLoading}
                optionFilterProp="label"
                options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
              />
            </Form.Item>
            <Form.Item name="groupIds" label={t('system.user.fields.groups')} initialValue={[]}>
              <Select
                mode="multiple"
                allowClear
                loading={groups.isLoading}
                optionFilterProp="label"
                options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
              />
            </Form.Item>
            <Form.Item name="disabled" hidden>
              <KeepValue />
            </Form.Item>
            <Form.Item name="avatar" hidden>
              <KeepValue />
            </Form.Item>
            <Form.Item name="introduction" hidden>
              <KeepValue />
            </Form.Item>
          </>
        )}
      />
      <PasswordResetModal user={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
