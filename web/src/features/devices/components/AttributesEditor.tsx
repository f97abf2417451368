import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** Identifier/name/value rows of a thing's `setting.attributes` (e.g. rated power, location). */
export function AttributesEditor() {
  const { t } = useTranslation();
  return (
    <Form.List
      name="attributes"
      rules={[
        {
          validator: async (_, rows?: { identifier?: string }[]) => {
            const ids = (rows ?? []).map((r) => r?.identifier?.trim()).filter(Boolean);
            if (new Set(ids).size !== ids.length) throw new Error(t('devices.validation.attributeDuplicate'));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          {fields.map((field) => (
            <Space key={field.key} align="baseline" style={{ display: 'flex' }} wrap={false}>
              <Form.Item
                name={[field.name, 'identifier']}
                rules={[
                  { required: true, whitespace: true, message: t('devices.validation.identifierRequired') },
                  { max: 64, message: t('devices.validation.maxLength', { max: 64 }) },
                ]}
              >
                <Input
                  placeholder={t('devices.thing.attr.identifier')}
                  style={{ width: 150 }}
                  maxLength={64}
                />
              </Form.Item>
              <Form.Item
                name={[field.name, 'name']}
                rules={[
                  { required: true, whitespace: true, message: t('devices.validation.nameRequired') },
                  { max: 64, message: t('devices.validation.maxLength', { max: 64 }) },
                ]}
              >
                <Input placeholder={t('devices.thing.attr.name')} style={{ width: 150 }} maxLength={64} />
              </Form.Item>
              <Form.Item
                name={[field.name, 'value']}
                rules={[{ max: 500, message: t('devices.validation.maxLength', { max: 500 }) }]}
              >
                <Input placeholder={t('devices.thing.attr.value')} style={{ width: 180 }} maxLength={500} />
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
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => add({ identifier: '', name: '', value: '' })}
            disabled={fields.length >= 100}
          >
            {t('devices.thing.attr.add')}
          </Button>
          <Form.ErrorList errors={errors} />
        </>
      )}
    </Form.List>
  );
}
