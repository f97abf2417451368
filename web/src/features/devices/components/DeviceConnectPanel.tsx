import type { DeviceConnection, Thing } from '@kilowatch/contract';
import { Alert, Descriptions, Skeleton, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDeviceConnection } from '../../../api/realtime.ts';
import { useThingAbilities } from '../../../api/things.ts';
import {
  curlInfluxV1,
  curlJson,
  curlThingsboard,
  mosquittoPub,
  type SnippetInput,
  sampleValues,
  telegrafOutput,
  topicOf,
} from '../lib/snippets.ts';

/** A command or config with a copy button; the copy always carries the real token. */
function Snippet({ id, shown, copied, hint }: { id: string; shown: string; copied: string; hint?: string }) {
  const { t } = useTranslation();
  return (
    <>
      {hint && <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>}
      <Typography.Paragraph
        copyable={{
          text: copied,
          tooltips: [t('devices.token.copy'), t('devices.token.copied')],
        }}
        style={{ display: 'flex', alignItems: 'flex-start', gap: 8, marginBottom: 0 }}
      >
        <pre
          data-testid={`snippet-${id}`}
          style={{
            flex: 1,
            margin: 0,
            padding: 12,
            overflowX: 'auto',
            fontSize: 12,
            whiteSpace: 'pre',
            background: 'rgba(128, 128, 128, 0.08)',
            border: '1px solid rgba(128, 128, 128, 0.2)',
            borderRadius: 6,
          }}
        >
          {shown}
        </pre>
      </Typography.Paragraph>
    </>
  );
}

function Facts({ connection, identifier }: { connection: DeviceConnection; identifier: string }) {
  const { t } = useTranslation();
  const { mqtt, http } = connection;
  return (
    <Descriptions size="small" column={1} bordered style={{ marginBottom: 12 }}>
      <Descriptions.Item label={t('devices.connect.broker')}>
        {mqtt.mode === 'off' ? (
          t('devices.connect.mqttOff')
        ) : (
          <Typography.Text code data-testid="connect-broker">
            {`${mqtt.protocol}://${mqtt.host?.includes(':') ? `[${mqtt.host}]` : mqtt.host}:${mqtt.port}`}
          </Typography.Text>
        )}
      </Descriptions.Item>
      {mqtt.mode !== 'off' && (
        <Descriptions.Item label={t('devices.connect.login')}>
          {mqtt.mode === 'broker' ? t('devices.connect.loginToken') : t('devices.connect.loginExternal')}
        </Descriptions.Item>
      )}
      {mqtt.mode !== 'off' && (
        <Descriptions.Item label={t('devices.connect.topic')}>
          <Typography.Text code copyable>
            {topicOf(connection, identifier)}
          </Typography.Text>
        </Descriptions.Item>
      )}
      <Descriptions.Item label={t('devices.connect.httpUrl')}>
        <Typography.Text code copyable>{`${http.baseUrl}${http.telemetryPath}`}</Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * How to connect this device: the broker, login and topic, then ready-to-copy mosquitto_pub,
 * curl, Telegraf, ThingsBoard HTTP and InfluxDB 1.x snippets with the token filled in (shown
 * masked until the token is).
 */
export function DeviceConnectPanel({
  thing,
  token,
  revealed,
  mask,
}: {
  thing: Thing;
  token: string;
  revealed: boolean;
  mask: string;
}) {
  const { t } = useTranslation();
  const connection = useDeviceConnection(true);
  const abilities = useThingAbilities(thing.id);
  if (connection.isError) return <Alert type="error" showIcon title={t('devices.connect.loadFailed')} />;
  if (!connection.data || abilities.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;

  const values = sampleValues(abilities.data ?? []);
  const base: Omit<SnippetInput, 'token'> = {
    connection: connection.data,
    identifier: thing.identifier,
    values: Object.keys(values).length ? values : { metric: 1 },
  };
  const both = (build: (input: SnippetInput) => string | null) => {
    const copied = build({ ...base, token });
    const shown = build({ ...base, token: revealed ? token : mask });
    return copied === null || shown === null ? null : { copied, shown };
  };
  const mqtt = both(mosquittoPub);
  const curl = both(curlJson);
  const telegraf = both(telegrafOutput);
  const thingsboard = both(curlThingsboard);
  const influxV1 = both(curlInfluxV1);
  const items = [
    mqtt && {
      key: 'mqtt',
      label: 'MQTT',
      children: <Snippet id="mosquitto" {...mqtt} />,
    },
    curl && { key: 'http', label: 'HTTP', children: <Snippet id="curl" {...curl} /> },
    telegraf && {
      key: 'telegraf',
      label: 'Telegraf',
      children: <Snippet id="telegraf" {...telegraf} />,
    },
    thingsboard && {
      key: 'thingsboard',
      label: t('devices.connect.thingsboard'),
      children: <Snippet id="thingsboard" hint={t('devices.connect.thingsboardHint')} {...thingsboard} />,
    },
    influxV1 && {
      key: 'influxV1',
      label: t('devices.connect.influxV1'),
      children: <Snippet id="influx-v1" hint={t('devices.connect.influxV1Hint')} {...influxV1} />,
    },
  ].filter((x) => x !== null);

  return (
    <>
      <Facts connection={connection.data} identifier={thing.identifier} />
      {Object.keys(values).length === 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('devices.connect.noAbilities')}
          style={{ marginBottom: 12 }}
        />
      )}
      <Tabs size="small" items={items} />
    </>
  );
}
