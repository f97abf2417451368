import { ALARM_STATE, type AlarmRateBand, type AlarmStateCode, type Severity } from '@kilowatch/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** State codes by name, for labels: `alarms.state.unacknowledged` … */
export const STATE_NAMES = Object.fromEntries(
  Object.entries(ALARM_STATE).map(([name, code]) => [code, name]),
) as Record<AlarmStateCode, keyof typeof ALARM_STATE>;

const STATE_COLORS: Record<keyof typeof ALARM_STATE, string> = {
  unacknowledged: 'red',
  acknowledged: 'orange',
  returnedUnacknowledged: 'gold',
  normal: 'green',
  shelved: 'purple',
  suppressed: 'default',
};

/**
 * Tags keep their tinted background and border but dark text: the presets' coloured text on their
 * own tint falls below 4.5:1 for volcano, orange, gold and green (axe, e2e/tests/accessibility.spec.ts).
 */
const READABLE = { color: 'rgba(0, 0, 0, 0.88)' };

const SEVERITY_COLORS: Record<Severity, string> = {
  critical: 'red',
  major: 'volcano',
  minor: 'gold',
  warning: 'blue',
};

export function StateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  const name = STATE_NAMES[state as AlarmStateCode];
  if (!name) return <Tag>{state}</Tag>;
  return (
    <Tag color={STATE_COLORS[name]} style={READABLE} data-testid="alarm-state">
      {t(`alarms.state.${name}`)}
    </Tag>
  );
}

export function SeverityTag({ severity }: { severity: Severity }) {
  const { t } = useTranslation();
  return (
    <Tag color={SEVERITY_COLORS[severity]} style={READABLE}>
      {t(`alarms.severity.${severity}`)}
    </Tag>
  );
}

const BAND_COLORS: Record<AlarmRateBand, string> = {
  acceptable: 'green',
  manageable: 'blue',
  overDemanding: 'orange',
  unacceptable: 'red',
};

/** EEMUA 191's judgement of an average alarm rate. */
export function BandTag({ band }: { band: AlarmRateBand }) {
  const { t } = useTranslation();
  return (
    <Tag color={BAND_COLORS[band]} style={READABLE} data-testid="health-band">
      {t(`alarms.health.band.${band}`)}
    </Tag>
  );
}
