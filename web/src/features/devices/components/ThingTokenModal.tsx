import { EyeInvisibleOutlined, EyeOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Thing } from '@kilowatch/contract';
import { Alert, Button, Divider, Modal, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegenerateThingToken, useThingToken } from '../../../api/things.ts';
import { useConfirmAction } from '../../../components/crud/confirm-delete.tsx';
import { DeviceConnectPanel } from './DeviceConnectPanel.tsx';
import { FirstMessageCheck } from './FirstMessageCheck.tsx';
import { QueryResult } from './QueryResult.tsx';

const MASK = '•'.repeat(24);

/**
 * A thing's access token (masked until revealed, copyable, regenerated after a warning) and how
 * to connect the device with it, with a live check that its first message arrived.
 */
export function ThingTokenModal({ thing, onClose }: { thing: Thing | null; onClose(): void }) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const query = useThingToken(thing?.id ?? null);
  const regenerate = useRegenerateThingToken(thing?.id ?? 0);
  const [revealed, setRevealed] = useState(false);
  const token = query.data?.accessToken ?? '';

  function close() {
    setRevealed(false);
    onClose();
  }

  function confirmRegenerate() {
    confirm({
      title: t('devices.token.regenerateTitle'),
      content: t('devices.token.regenerateWarning'),
      okText: t('devices.token.regenerate'),
      done: t('toast.done'),
      danger: true,
      onOk: () => regenerate.mutateAsync().then(() => setRevealed(true)),
    });
  }

  return (
    <Modal
      open={thing != null}
      title={t('devices.token.title', { name: thing?.name ?? '' })}
      onCancel={close}
      footer={
        <Space>
          <Button danger icon={<ReloadOutlined />} onClick={confirmRegenerate} disabled={!query.data}>
            {t('devices.token.regenerate')}
          </Button>
          <Button type="primary" onClick={close}>
            {t('devices.token.close')}
          </Button>
        </Space>
      }
      destroyOnHidden
      width={760}
    >
      <Typography.Paragraph type="secondary">
        {t('devices.token.hint', { identifier: thing?.identifier ?? '' })}
      </Typography.Paragraph>
      <QueryResult query={query}>
        {query.isPending ? (
          <Skeleton.Input active block />
        ) : (
          <Space.Compact block>
            <Typography.Text
              code
              copyable={{ text: token, tooltips: [t('devices.token.copy'), t('devices.token.copied')] }}
              data-testid="thing-token"
              style={{ flex: 1, wordBreak: 'break-all' }}
            >
              {revealed ? token : MASK}
            </Typography.Text>
            <Button
              type="link"
              size="small"
              icon={revealed ? <EyeInvisibleOutlined /> : <EyeOutlined />}
              onClick={() => setRevealed((v) => !v)}
            >
              {revealed ? t('devices.token.hide') : t('devices.token.show')}
            </Button>
          </Space.Compact>
        )}
      </QueryResult>
      <Alert type="warning" showIcon title={t('devices.token.keepSecret')} style={{ marginTop: 16 }} />
      {thing && query.data && (
        <>
          <Divider titlePlacement="start">{t('devices.connect.title')}</Divider>
          <DeviceConnectPanel thing={thing} token={token} revealed={revealed} mask={MASK} />
          <Divider titlePlacement="start">{t('devices.connect.check')}</Divider>
          <FirstMessageCheck thingId={thing.id} />
        </>
      )}
    </Modal>
  );
}
