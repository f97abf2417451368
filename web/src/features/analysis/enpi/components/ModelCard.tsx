import type { EnpiReport } from '@kilowatch/contract';
import { Alert, Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { two } from '../lib/form.ts';

const percent = (v: number) => `${(v * 100).toFixed(2)} %`;

/** The baseline model: its equation, coefficients, R², CV(RMSE), n and whether it is adequate. */
export function ModelCard({ report }: { report: EnpiReport }) {
  const { t } = useTranslation();
  const { model, modelError } = report;
  if (!model) {
    return (
      <Card size="small" title={t('enpi.model')} data-testid="enpi-model">
        <Alert type="warning" showIcon title={t('enpi.noModel')} description={modelError?.message} />
      </Card>
    );
  }
  const name = (v: string) => t(`enpi.variable.${v}`);
  const equation = [
    `E = ${two(model.intercept)}`,
    ...model.variables.map((v, i) => {
      const c = model.coefficients[i] ?? 0;
      return `${c < 0 ? '−' : '+'} ${two(Math.abs(c))} × ${name(v)}`;
    }),
  ].join(' ');
  return (
    <Card
      size="small"
      title={t('enpi.model')}
      data-testid="enpi-model"
      extra={
        <Tag color={model.adequate ? 'success' : 'error'} data-testid="enpi-adequate">
          {model.adequate ? t('enpi.adequate') : t('enpi.inadequate')}
        </Tag>
      }
    >
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t('enpi.equation')} span={2}>
          {equation}
        </Descriptions.Item>
        <Descriptions.Item label={t('enpi.intercept')}>{two(model.intercept)}</Descriptions.Item>
        {model.variables.map((v, i) => (
          <Descriptions.Item key={v} label={name(v)}>
            {two(model.coefficients[i])}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label={t('enpi.r2')}>{two(model.r2)}</Descriptions.Item>
        <Descriptions.Item label={t('enpi.cvrmse')}>{percent(model.cvrmse)}</Descriptions.Item>
        <Descriptions.Item label={t('enpi.n')}>{model.n}</Descriptions.Item>
        <Descriptions.Item label={t('enpi.criteria')}>
          {t('enpi.thresholds', { r2: two(model.r2Min), cv: percent(model.cvrmseMax) })}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
