import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** The ability name input with its rules, shared by the category ability and model override forms. */
export function AbilityNameField() {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="name"
      label={t('devices.ability.fields.name')}
      rules={[
        { required: true, whitespace: true, message: t('devices.validation.nameRequired') },
        { max: 64, message: t('devices.validation.maxLength', { max: 64 }) },
      ]}
    >
      <Input maxLength={64} />
    </Form.Item>
  );
}
