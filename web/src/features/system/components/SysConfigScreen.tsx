import { DeleteOutlined } from '@ant-design/icons';
import { SYSTEM_SETTING_IDENTIFIER, type SysConfig, type SysConfigInput } from '@kilowatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Form, Input, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import {
  createSysConfig,
  deleteSysConfig,
  getSysConfigs,
  updateSysConfig,
  useApplyLogo,
} from '../../../api/system.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { toLogoConfig } from '../../../lib/logo.ts';
import { ErpConfigForm } from './ErpConfigForm.tsx';
import { LogoForm } from './LogoForm.tsx';
import { WebhookHostsForm } from './WebhookHostsForm.tsx';

const IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const VALUE_PREVIEW_CHARS = 80;

const isBuiltIn = (c: Pick<SysConfig, 'identifier'>) => c.identifier === SYSTEM_SETTING_IDENTIFIER;

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** /sys_config (系统设置): the logo, the webhooks' allowed internal hosts, the ERP export's form, then every system config. `systemSetting` cannot be deleted. */
export function SysConfigScreen() {
  const { t } = useTranslation();
  const askDelete = useConfirmDelete();
  const queryClient = useQueryClient();
  const applyLogo = useApplyLogo();

  const remove = useMutation({
    mutationFn: (c: SysConfig) => deleteSysConfig(c.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.sysconfigs.all });
    },
  });

  const confirmDelete = (c: SysConfig) =>
    askDelete({
      content: t('crud.deleteConfirm', { name: c.identifier }),
      onDelete: () => remove.mutateAsync(c),
    });

  const toInput = (v: SysConfigInput): SysConfigInput => ({
    identifier: v.identifier.trim(),
    name: v.name.trim(),
    value: v.value ?? '',
    description: v.description ?? '',
  });

  const identifierLabel = t('system.config.fields.identifier');
  const nameLabel = t('system.config.fields.name');

  return (
    <Flex vertical gap={16}>
      <LogoForm />
      <WebhookHostsForm />
      <ErpConfigForm />
      <CrudPage<SysConfig, SysConfigInput>
        queryKey={keys.sysconfigs.all}
        title={t('system.config.title')}
        searchPlaceholder={t('system.config.searchPlaceholder')}
        dialogWidth={640}
        fetchPage={(p) =>
          getSysConfigs({ page: p.page, pageSize: p.pageSize, identifier: p.name || undefined })
        }
        describeRow={(c) => c.identifier}
        columns={[
          {
            title: identifierLabel,
            dataIndex: 'identifier',
            render: (id: string, c) => (
              <>
                <code>{id}</code> {isBuiltIn(c) && <Tag color="gold">{t('system.config.builtIn')}</Tag>}
              </>
            ),
          },
          { title: nameLabel, dataIndex: 'name' },
          {
            title: t('system.config.fields.value'),
            dataIndex: 'value',
            render: (value: string) => (
              <Typography.Text code title={truncate(value, 500)} style={{ wordBreak: 'break-all' }}>
                {truncate(value, VALUE_PREVIEW_CHARS)}
              </Typography.Text>
            ),
          },
          { title: t('system.common.description'), dataIndex: 'description', ellipsis: true },
        ]}
        rowActions={(c) =>
          isBuiltIn(c) ? null : (
            <Button
              size="small"
              type="link"
              danger
              icon={<DeleteOutlined />}
              onClick={() => confirmDelete(c)}
            >
              {t('crud.delete')}
            </Button>
          )
        }
        toFormValues={(c) => ({
          identifier: c.identifier,
          name: c.name,
          value: c.value,
          description: c.description,
        })}
        create={(v) => createSysConfig(toInput(v))}
        update={async (id, v) => {
          const saved = await updateSysConfig(id, toInput(v));
          // Editing systemSetting here changes the sidebar logo as well.
          const logo = isBuiltIn(v) ? toLogoConfig(v.value) : null;
          if (logo) applyLogo(logo);
          return saved;
        }}
        renderForm={(form, editing) => (
          <>
            <Form.Item
              name="identifier"
              label={identifierLabel}
              rules={[
                { required: true, message: t('system.common.required', { field: identifierLabel }) },
                { pattern: IDENTIFIER_PATTERN, message: t('system.config.identifierRule') },
              ]}
            >
              <Input maxLength={64} disabled={editing != null && isBuiltIn(editing)} autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="name"
              label={nameLabel}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t('system.common.required', { field: nameLabel }),
                },
                { max: 64, message: t('system.common.maxLength', { field: nameLabel, max: 64 }) },
              ]}
            >
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item
              name="value"
              label={t('system.config.fields.value')}
              rules={[
                {
                  validator: (_, value: string | undefined) =>
                    form.getFieldValue('identifier') === SYSTEM_SETTING_IDENTIFIER && !toLogoConfig(value)
                      ? Promise.reject(new Error(t('system.config.invalidSystemSetting')))
                      : Promise.resolve(),
                },
              ]}
            >
              <Input.TextArea rows={4} />
            </Form.Item>
            <Form.Item name="description" label={t('system.common.description')}>
              <Input.TextArea rows={2} maxLength={500} />
            </Form.Item>
          </>
        )}
      />
    </Flex>
  );
}
