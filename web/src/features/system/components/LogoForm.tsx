import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { LOGO_TYPES, SYSTEM_SETTING_IDENTIFIER } from '@kilowatch/contract';
import { Alert, Button, Card, Form, Space, Switch, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveLogo, useSysConfigByIdentifier } from '../../../api/system.ts';
import { DEFAULT_LOGO_SRC, toLogoConfig } from '../../../lib/logo.ts';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { checkLogoFile, LOGO_MAX_KB, readAsDataUrl } from '../lib/logo.ts';
import { ConfigSaveButtons } from './ConfigSaveButtons.tsx';

/** The built-in image shown when no logo image is set (the sidebar does the same). */

/** The `systemSetting` logo: upload (checked and read client-side), preview, show switch, save. */
export function LogoForm() {
  const { t } = useTranslation();
  const stored = useSession((s) => s.logo);
  const config = useSysConfigByIdentifier(SYSTEM_SETTING_IDENTIFIER);
  const save = useSaveLogo();
  // Edits over what is saved; null means "as saved".
  const [img, setImg] = useState<string | null>(null);
  const [show, setShow] = useState<boolean | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  const saved = (config.data && toLogoConfig(config.data.value)) ?? stored;
  const draft = { img: img ?? saved.img, show: show ?? saved.show };

  const onFile = (file: File) => {
    const problem = checkLogoFile(file);
    if (problem) {
      setFileError(t(`system.logo.${problem}`, { max: LOGO_MAX_KB }));
      return Upload.LIST_IGNORE;
    }
    setFileError(null);
    readAsDataUrl(file)
      .then(setImg)
      .catch(() => setFileError(t('system.logo.readFailed')));
    // Nothing is uploaded: the image travels inside the config value on save.
    return false;
  };

  const onSave = () =>
    save.mutate(
      { logo: draft, existing: config.data ?? null, name: t('system.logo.configName') },
      {
        onSuccess: () => {
          setImg(null);
          setShow(null);
          notify.success(t('toast.updated'));
        },
      },
    );

  return (
    <Card title={t('system.logo.title')} data-testid="logo-form">
      <Form layout="vertical" style={{ maxWidth: 560 }}>
        <Form.Item label={t('system.logo.image')} extra={t('system.logo.hint', { max: LOGO_MAX_KB })}>
          <Space align="center" size="large" wrap>
            <div
              title={t('system.logo.preview')}
              style={{
                display: 'flex',
                alignItems: 'center',
                gap: 10,
                height: 56,
                padding: '0 18px',
                background: '#001529',
                borderRadius: 6,
                color: '#fff',
                fontWeight: 600,
                opacity: draft.show ? 1 : 0.4,
              }}
            >
              <img
                src={draft.img || DEFAULT_LOGO_SRC}
                alt={t('system.logo.preview')}
                style={{ width: 28, height: 28, objectFit: 'contain' }}
                data-testid="logo-preview"
              />
              <span>{t('app.name')}</span>
            </div>
            <Upload accept={LOGO_TYPES.join(',')} showUploadList={false} maxCount={1} beforeUpload={onFile}>
              <Button icon={<UploadOutlined />}>{t('system.logo.upload')}</Button>
            </Upload>
            {draft.img && (
              <Button icon={<DeleteOutlined />} onClick={() => setImg('')}>
                {t('system.logo.remove')}
              </Button>
            )}
          </Space>
          {!draft.img && (
            <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
              {t('system.logo.default')}
            </Typography.Paragraph>
          )}
          {fileError && (
            <Alert type="error" showIcon role="alert" title={fileError} style={{ marginTop: 8 }} />
          )}
        </Form.Item>
        <Form.Item label={t('system.logo.show')}>
          <Switch checked={draft.show} onChange={setShow} aria-label={t('system.logo.show')} />
        </Form.Item>
        <ConfigSaveButtons config={config} saving={save.isPending} onSave={onSave} testId="logo-save" />
      </Form>
    </Card>
  );
}
