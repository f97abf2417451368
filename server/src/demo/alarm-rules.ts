import type { AlarmRuleInput } from '@kilowatch/contract';
import type { AlarmsService } from '../modules/alarms/index.ts';
import { MOTOR_TEMP_LIMIT } from '../simulator/index.ts';

/** What the demo needs of the alarm centre to provision its rules. */
export type DemoAlarms = Pick<AlarmsService, 'createRule' | 'setRuleState' | 'applyMonitors'>;

type DemoRule = Omit<AlarmRuleInput, 'categoryId' | 'templateId'> & { category: string };

/**
 * The demo plant's alarm rules, each watching what the simulator really does (docs/demo-plant.md):
 * a tripped compressor loses pressure (0.45 MPa; running it stays at 0.60–0.72), an overheating
 * compressor motor passes 105 ℃ (a healthy one stays below 90), a fire sensor
 * reports 1 报警 or 2 故障, and transformers pass 70 % load at the production peaks, so the bell
 * rings on a working day without waiting for a rare fault.
 */
export const DEMO_RULES: readonly DemoRule[] = [
  {
    category: '空压机',
    name: '空压机跳机',
    ability: 'pressure',
    condition: { kind: 'threshold', op: '<', value: 0.5 },
    onDelay: 30,
    offDelay: 60,
    deadband: 0.05,
    severity: 'major',
    message: '{thing} 排气压力 {value} {unit}，疑似跳机（{region}）',
  },
  {
    category: '空压机',
    name: '电机温度过高',
    ability: 'motorTemp',
    condition: { kind: 'threshold', op: '>', value: MOTOR_TEMP_LIMIT },
    onDelay: 60,
    offDelay: 120,
    deadband: 5,
    severity: 'major',
    message: `{thing} 电机温度 {value}{unit}，超过 ${MOTOR_TEMP_LIMIT}{unit}（{region}）`,
  },
  {
    category: '烟温复合探测器',
    name: '火灾报警',
    ability: 'state',
    condition: { kind: 'state', values: ['1'] },
    onDelay: 0,
    offDelay: 30,
    deadband: 0,
    severity: 'critical',
    message: '{thing} 火灾报警，请立即核实（{region}）',
  },
  {
    category: '烟温复合探测器',
    name: '探测器故障',
    ability: 'state',
    condition: { kind: 'state', values: ['2'] },
    onDelay: 60,
    offDelay: 60,
    deadband: 0,
    severity: 'minor',
    message: '{thing} 探测器故障（{region}）',
  },
  {
    category: '变压器',
    name: '变压器负载率过高',
    ability: 'loadRate',
    condition: { kind: 'threshold', op: '>', value: 70 },
    onDelay: 300,
    offDelay: 300,
    deadband: 5,
    severity: 'warning',
    message: '{thing} 负载率 {value}{unit}，超过 70%',
  },
];

/** Creates, enables and applies the demo rules to the whole plant (its root region). */
export async function seedAlarmRules(
  alarms: DemoAlarms,
  rootRegionId: number,
  categoryIdOf: (name: string) => Promise<number | undefined>,
): Promise<number> {
  let created = 0;
  for (const { category, ...rule } of DEMO_RULES) {
    const categoryId = await categoryIdOf(category);
    if (categoryId === undefined) continue;
    const { id } = await alarms.createRule({ ...rule, categoryId });
    await alarms.setRuleState(id, 'enable');
    await alarms.applyMonitors({
      appliedType: 'rule',
      appliedId: id,
      targets: [{ type: 'region', id: rootRegionId }],
    });
    created++;
  }
  return created;
}
