import { NodeIndexOutlined } from '@ant-design/icons';
import type { AlarmTemplate, AlarmTemplateInput } from '@kilowatch/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createAlarmTemplate,
  deleteAlarmTemplate,
  getAlarmTemplates,
  updateAlarmTemplate,
} from '../../../api/alarms.ts';
import { keys, thenInvalidate } from '../../../api/keys.ts';
import { useCategoryOptions } from '../../../api/things.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { useAlarmAbilities } from '../abilities.ts';
import { type Applied, ApplyMonitorsDialog } from './ApplyMonitorsDialog.tsx';

/** Templates: a reusable set of rules for one device category (its rules name it). */
export function TemplatesTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { canEditRules } = useAlarmAbilities();
  const categories = useCategoryOptions();
  const [applying, setApplying] = useState<Applied | null>(null);
  // Rules show their template's name, monitors its name: every change refreshes all of /api/alarm.
  const refresh = <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    thenInvalidate(queryClient, [keys.alarms.all], fn);

  return (
    <>
      <CrudPage<AlarmTemplate, AlarmTemplateInput>
        queryKey={[...keys.alarms.all, 'templates']}
        title={t('alarms.template.title')}
        fetchPage={({ page, pageSize, name }) =>
          getAlarmTemplates({ page, pageSize, name: name || undefined })
        }
        columns={[
          { title: t('alarms.template.name'), dataIndex: 'name' },
          { title: t('alarms.rule.category'), dataIndex: 'categoryName' },
          {
            title: t('alarms.template.description'),
            dataIndex: 'description',
            render: (v: string) => v || '—',
          },
          { title: t('alarms.template.rules'), dataIndex: 'rules' },
        ]}
        describeRow={(row) => row.name}
        toFormValues={(row) => ({ name: row.name, categoryId: row.categoryId, description: row.description })}
        create={
          canEditRules
            ? refresh((v: AlarmTemplateInput) =>
                createAlarmTemplate({ ...v, description: v.description ?? '' }),
              )
            : undefined
        }
        update={
          canEditRules
            ? refresh((id: number, v: AlarmTemplateInput) =>
                updateAlarmTemplate(id, { ...v, description: v.description ?? '' }),
              )
            : undefined
        }
        remove={canEditRules ? refresh((row: AlarmTemplate) => deleteAlarmTemplate(row.id)) : undefined}
        rowActions={
          canEditRules
            ? (row) => (
                <Button
                  size="small"
                  type="link"
                  icon={<NodeIndexOutlined />}
                  onClick={() =>
                    setApplying({ type: 'template', id: row.id, name: row.name, categoryId: row.categoryId })
                  }
                >
                  {t('alarms.monitor.apply')}
                </Button>
              )
            : undefined
        }
        renderForm={
          canEditRules
            ? () => (
                <>
                  <Form.Item
                    name="name"
                    label={t('alarms.template.name')}
                    rules={[
                      { required: true, whitespace: true, message: t('alarms.rule.required') },
                      { max: 64, message: t('alarms.rule.nameMax') },
                    ]}
                  >
                    <Input />
                  </Form.Item>
                  <Form.Item
                    name="categoryId"
                    label={t('alarms.rule.category')}
                    rules={[{ required: true, message: t('alarms.rule.required') }]}
                  >
                    <Select
                      showSearch={{ optionFilterProp: 'label' }}
                      options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
                    />
                  </Form.Item>
                  <Form.Item
                    name="description"
                    label={t('alarms.template.description')}
                    rules={[{ max: 500, message: t('alarms.template.descriptionMax') }]}
                  >
                    <Input.TextArea rows={3} maxLength={500} />
                  </Form.Item>
                </>
              )
            : undefined
        }
      />
      <ApplyMonitorsDialog applied={applying} onClose={() => setApplying(null)} />
    </>
  );
}
