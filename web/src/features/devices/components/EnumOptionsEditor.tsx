import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** Value/label rows of an enum ability (e.g. 0 停机, 1 运行). */
export function EnumOptionsEditor() {
  const { t } = useTranslation();
  return (
    <Form.List
      name="enumOptions"
      rules={[
        {
          validator: async (_, options?: { value?: string }[]) => {
            if (!options?.length) throw new Error(t('devices.validation.enumOptionsRequired'));
            const values = options.map((o) => o?.value?.trim()).filter(Boolean);
            if (new Set(values).size !== values.length)
              throw new Error(t('devices.validation.enumDuplicate'));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          {fields.map((field) => (
            <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
              <Form.Item
                name={[field.name, 'value']}
                rules={[
                  { required: true, whitespace: true, message: t('devices.validation.optionValueRequired') },
                  { max: 64, message: t('devices.validation.maxLength', { max: 64 }) },
                ]}
              >
                <Input placeholder={t('devices.ability.optionValue')} style={{ width: 120 }} />
              </Form.Item>
              <Form.Item
                name={[field.name, 'label']}
                rules={[
                  { required: true, whitespace: true, message: t('devices.validation.optionLabelRequired') },
                  { max: 64, message: t('devices.validation.maxLength', { max: 64 }) },
                ]}
              >
                <Input placeholder={t('devices.ability.optionLabel')} style={{ width: 200 }} />
              </Form.Item>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('devices.common.removeRow')}
                onClick={() => remove(field.name)}
              />
            </Space>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ value: '', label: '' })}>
            {t('devices.ability.addOption')}
          </Button>
          <Form.ErrorList errors={errors} />
        </>
      )}
    </Form.List>
  );
}
