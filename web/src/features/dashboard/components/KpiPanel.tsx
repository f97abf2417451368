import { type Overview, SEVERITIES } from '@kilowatch/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SEVERITY_COLORS } from '../lib/state.ts';
import styles from './dashboard.module.css';

const number = (value: number | null | undefined, digits: number) =>
  value === null || value === undefined
    ? null
    : value.toLocaleString(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits });

function Kpi({
  label,
  value,
  unit,
  note,
  testId,
}: {
  label: string;
  value: string | null;
  unit?: string;
  note?: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={styles.kpi} data-testid={testId}>
      <span className={styles.kpiLabel}>{label}</span>
      <span className={styles.kpiValue}>
        {value ?? '—'}
        {value !== null && unit && <span className={styles.kpiUnit}>{unit}</span>}
      </span>
      {value === null && !note ? <span className={styles.kpiNote}>{t('dashboard.kpi.noData')}</span> : null}
      {note && <span className={styles.kpiNote}>{note}</span>}
    </div>
  );
}

/** The plant's totals now (GET /api/dashboard/overview, polled). */
export function KpiPanel({ overview }: { overview: Overview | undefined }) {
  const { t } = useTranslation();
  const devices = overview?.devices;
  const alarms = overview?.alarms;
  return (
    <section className={`${styles.panel} ${styles.kpis}`} aria-label={t('route.dashboard')}>
      {overview && !overview.region && <span className={styles.kpiNote}>{t('dashboard.noPlant')}</span>}
      <Kpi label={t('dashboard.kpi.power')} value={number(overview?.power, 1)} unit="kW" testId="kpi-power" />
      <Kpi
        label={t('dashboard.kpi.energyToday')}
        value={number(overview?.energyToday, 1)}
        unit="kWh"
        testId="kpi-energy"
      />
      <Kpi
        label={t('dashboard.kpi.costToday')}
        value={number(overview?.costToday, 2)}
        unit={t('dashboard.kpi.currency')}
        note={
          overview && !overview.tariff ? (
            // The plant's tariff is chosen on the tariff screen (设为全厂电价).
            <Link to="/analysis/tariff" data-testid="kpi-no-tariff" className={styles.kpiLink}>
              {t('dashboard.kpi.noTariff')}
            </Link>
          ) : overview?.tariff ? (
            // Which tariff priced today's cost: the plant region's own, the plant's, or the asked one.
            <span data-testid="kpi-tariff">
              {t(`dashboard.kpi.tariffSource.${overview.tariff.source.kind}`, {
                name: overview.tariff.name,
                region: overview.tariff.source.region?.name,
              })}
            </span>
          ) : null
        }
        testId="kpi-cost"
      />
      <div className={styles.kpi} data-testid="kpi-alarms">
        <span className={styles.kpiLabel}>{t('dashboard.kpi.alarms')}</span>
        <div className={styles.counts}>
          {SEVERITIES.map((s) => (
            <span
              key={s}
              className={styles.count}
              style={{ borderLeftColor: SEVERITY_COLORS[s] }}
              data-testid={`kpi-alarm-${s}`}
            >
              <span>{t(`dashboard.severity.${s}`)}</span>
              <span className={styles.countValue}>{alarms?.[s] ?? '—'}</span>
            </span>
          ))}
        </div>
        {alarms && alarms.unacknowledged > 0 && (
          <span className={styles.kpiNote}>
            {t('dashboard.kpi.unacknowledged', { count: alarms.unacknowledged })}
          </span>
        )}
      </div>
      <div className={styles.kpi} data-testid="kpi-devices">
        <span className={styles.kpiLabel}>{t('dashboard.kpi.devices')}</span>
        <div className={styles.counts}>
          <span className={styles.count} style={{ borderLeftColor: '#52c41a' }}>
            <span>{t('dashboard.kpi.online')}</span>
            <span className={styles.countValue} data-testid="kpi-online">
              {devices?.online ?? '—'}
            </span>
          </span>
          <span className={styles.count} style={{ borderLeftColor: '#8c8c8c' }}>
            <span>{t('dashboard.kpi.offline')}</span>
            <span className={styles.countValue}>{devices?.offline ?? '—'}</span>
          </span>
          <span className={styles.count} style={{ borderLeftColor: '#595959' }}>
            <span>{t('dashboard.kpi.never')}</span>
            <span className={styles.countValue}>{devices?.never ?? '—'}</span>
          </span>
        </div>
      </div>
    </section>
  );
}
