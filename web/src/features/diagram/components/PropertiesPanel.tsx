import { DIAGRAM_MAX_SHOWN, type DiagramBinding } from '@kilowatch/contract';
import { Button, Empty, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useThingAbilities, useThingSearch } from '../../../api/things.ts';
import type { NodeData } from '../lib/cells.ts';
import { isSource, isSwitch } from '../lib/topology.ts';

export interface PropertiesPanelProps {
  nodeId: string;
  data: NodeData;
  width: number;
  onChange: (data: NodeData, width?: number) => void;
}

/** The selected symbol's label, size and binding, while editing. */
export function PropertiesPanel({ nodeId, data, width, onChange }: PropertiesPanelProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const things = useThingSearch(search);
  const binding = data.binding;
  const abilities = useThingAbilities(binding?.thingId ?? null);
  const numeric = (abilities.data ?? []).filter((a) => a.dataType === 'number');
  const options = (list: typeof numeric) =>
    list.map((a) => ({
      value: a.identifier,
      label: `${a.name} (${a.identifier}${a.unit ? `, ${a.unit}` : ''})`,
    }));
  const setBinding = (patch: Partial<DiagramBinding> | null) => {
    if (patch === null) return onChange({ ...data, binding: undefined });
    const next = { shown: [], ...binding, ...patch } as DiagramBinding;
    for (const key of Object.keys(next) as (keyof DiagramBinding)[])
      if (next[key] === undefined) delete next[key];
    onChange({ ...data, binding: next });
  };
  const thingOptions = [
    ...(binding && !(things.data ?? []).some((th) => th.id === binding.thingId)
      ? [{ value: binding.thingId, label: `#${binding.thingId}` }]
      : []),
    ...(things.data ?? []).map((th) => ({ value: th.id, label: `${th.name} (${th.identifier})` })),
  ];

  return (
    <Form layout="vertical" size="small" key={nodeId} data-testid="diagram-properties">
      <Typography.Title level={5}>{t(`diagram.symbol.${data.symbol}`)}</Typography.Title>
      <Form.Item label={t('diagram.label')}>
        <Input
          value={data.label}
          maxLength={64}
          onChange={(e) => onChange({ ...data, label: e.target.value })}
          data-testid="diagram-label"
        />
      </Form.Item>
      {data.symbol === 'busbar' && (
        <Form.Item label={t('diagram.busbarWidth')}>
          <InputNumber min={40} max={4000} step={10} value={width} onChange={(w) => w && onChange(data, w)} />
        </Form.Item>
      )}
      <Form.Item label={t('diagram.device')}>
        <Select
          showSearch={{ filterOption: false, onSearch: setSearch }}
          allowClear
          placeholder={t('diagram.pickDevice')}
          value={binding?.thingId}
          options={thingOptions}
          loading={things.isFetching}
          notFoundContent={
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagram.noDevices')} />
          }
          onChange={(thingId?: number) =>
            setBinding(
              thingId === undefined ? null : { thingId, shown: [], power: undefined, status: undefined },
            )
          }
          data-testid="diagram-device"
        />
      </Form.Item>
      {binding && (
        <>
          <Form.Item label={t('diagram.shown')} help={t('diagram.shownHelp', { max: DIAGRAM_MAX_SHOWN })}>
            <Select
              mode="multiple"
              maxCount={DIAGRAM_MAX_SHOWN}
              value={binding.shown}
              options={options(abilities.data ?? [])}
              onChange={(shown: string[]) => setBinding({ shown })}
              data-testid="diagram-shown"
            />
          </Form.Item>
          <Form.Item label={t('diagram.power')} help={t('diagram.powerHelp')}>
            <Select
              allowClear
              value={binding.power}
              options={options(numeric)}
              onChange={(power?: string) => setBinding({ power })}
              data-testid="diagram-power"
            />
          </Form.Item>
          {binding.power && (
            <Form.Item label={t('diagram.flow')}>
              <Select
                value={binding.flow ?? 'auto'}
                options={[
                  { value: 'auto', label: t('diagram.flowAuto') },
                  { value: 'in', label: t('diagram.flowIn') },
                  { value: 'out', label: t('diagram.flowOut') },
                ]}
                onChange={(flow: 'auto' | 'in' | 'out') =>
                  setBinding({ flow: flow === 'auto' ? undefined : flow })
                }
              />
            </Form.Item>
          )}
          {(isSwitch(data.symbol) || isSource(data.symbol)) && (
            <>
              <Form.Item label={t('diagram.status')} help={t('diagram.statusHelp')}>
                <Select
                  allowClear
                  value={binding.status}
                  options={options(abilities.data ?? [])}
                  onChange={(status?: string) => setBinding({ status })}
                  data-testid="diagram-status"
                />
              </Form.Item>
              {binding.status && (
                <Form.Item label={t('diagram.closedValue')}>
                  <Input
                    maxLength={32}
                    placeholder="1"
                    value={binding.closedValue}
                    onChange={(e) => setBinding({ closedValue: e.target.value || undefined })}
                  />
                </Form.Item>
              )}
            </>
          )}
          <Button size="small" onClick={() => setBinding(null)}>
            {t('diagram.unbind')}
          </Button>
        </>
      )}
    </Form>
  );
}
