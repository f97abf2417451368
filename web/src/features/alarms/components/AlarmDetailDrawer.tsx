import { ALARM_STATE, type AlarmActionBody, type AlarmDetail } from '@kilowatch/contract';
import {
  Alert,
  Button,
  DatePicker,
  Descriptions,
  Drawer,
  Empty,
  Input,
  Result,
  Space,
  Spin,
  Timeline,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAlarm,
  useAlarmAction,
  useOutOfService,
  useReturnToService,
  useTakeOutOfService,
} from '../../../api/alarms.ts';
import { useConfirmAction } from '../../../components/crud/confirm-delete.tsx';
import { CameraLink } from '../../../components/video/CameraLink.tsx';
import { alarmValueText } from '../../../lib/alarm-value.ts';
import { notify } from '../../../lib/notify.ts';
import { formatPlantTime as formatTime } from '../../../lib/plant-calendar.ts';
import { useAlarmAbilities } from '../abilities.ts';
import { AlarmChart } from './AlarmChart.tsx';
import { SeverityTag, StateTag } from './tags.tsx';

/** Shelving is for a shift's nuisance: at most 7 days (the server refuses more). */
const MAX_SHELVE_DAYS = 7;

/** Which actions make sense in a state; the server has the last word and says why it refuses. */
function actionsFor(alarm: Pick<AlarmDetail, 'state' | 'returnedAt'>) {
  const open = alarm.state !== ALARM_STATE.normal;
  const active = open && alarm.returnedAt === null;
  return {
    acknowledge:
      alarm.state === ALARM_STATE.unacknowledged ||
      alarm.state === ALARM_STATE.returnedUnacknowledged ||
      alarm.state === ALARM_STATE.suppressed,
    shelve: active && alarm.state !== ALARM_STATE.shelved,
    unshelve: alarm.state === ALARM_STATE.shelved,
    close: open,
  };
}

/** One alarm: what, where, when, its action trail, and the operator's actions. */
export function AlarmDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  // The last alarm stays in the drawer while it slides shut, instead of a spinner.
  const [shown, setShown] = useState(id);
  if (id !== null && id !== shown) setShown(id);
  const alarm = useAlarm(shown);
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={560}
      title={t('alarms.detail.title', { id: shown ?? '' })}
      destroyOnHidden
      data-testid="alarm-detail"
    >
      {alarm.isPending ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : alarm.isError ? (
        <Result
          status="warning"
          title={t('alarms.detail.loadFailed')}
          subTitle={alarm.error.message}
          extra={<Button onClick={() => alarm.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <DetailBody alarm={alarm.data} />
      )}
    </Drawer>
  );
}

function DetailBody({ alarm }: { alarm: AlarmDetail }) {
  const { t } = useTranslation();
  const { canClose } = useAlarmAbilities();
  const action = useAlarmAction();
  const [comment, setComment] = useState('');
  const [until, setUntil] = useState<Dayjs | null>(null);
  const can = actionsFor(alarm);

  const act = (body: AlarmActionBody) =>
    action.mutate(
      { id: alarm.id, body: { ...body, comment: comment.trim() || undefined } },
      {
        onSuccess: () => {
          notify.success(t(`alarms.detail.done.${body.action}`));
          setComment('');
          setUntil(null);
        },
      },
    );

  const now = dayjs();
  const latest = now.add(MAX_SHELVE_DAYS, 'day');

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('alarms.history.state')}>
          <Space size={2}>
            <StateTag state={alarm.state} />
            <SeverityTag severity={alarm.severity} />
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('alarms.history.resource')}>
          {t(`alarms.resourceType.${alarm.resourceType}`)} · {alarm.resourceName}
        </Descriptions.Item>
        <Descriptions.Item label={t('alarms.detail.thing')}>{alarm.thingName}</Descriptions.Item>
        <Descriptions.Item label={t('alarms.history.rule')}>
          {alarm.ruleName} (#{alarm.ruleId})
        </Descriptions.Item>
        {alarm.templateName !== '' && (
          <Descriptions.Item label={t('alarms.history.template')}>{alarm.templateName}</Descriptions.Item>
        )}
        <Descriptions.Item label={t('alarms.detail.ability')}>
          {alarm.abilityName ? `${alarm.abilityName} (${alarm.ability})` : alarm.ability}
        </Descriptions.Item>
        <Descriptions.Item label={t('alarms.history.value')}>
          <span data-testid="alarm-value">{alarmValueText(alarm, false)}</span>
        </Descriptions.Item>
        {alarm.message !== '' && (
          <Descriptions.Item label={t('alarms.detail.message')}>{alarm.message}</Descriptions.Item>
        )}
        <Descriptions.Item label={t('alarms.history.alarmAt')}>{formatTime(alarm.alarmAt)}</Descriptions.Item>
        <Descriptions.Item label={t('alarms.history.returnedAt')}>
          {formatTime(alarm.returnedAt) || t('alarms.detail.stillActive')}
        </Descriptions.Item>
        {alarm.shelvedUntil !== null && (
          <Descriptions.Item label={t('alarms.detail.shelvedUntil')}>
            {formatTime(alarm.shelvedUntil)}
          </Descriptions.Item>
        )}
        {alarm.chattering && (
          <Descriptions.Item label={t('alarms.history.chattering')}>
            {t('alarms.history.chatteringHint', { count: alarm.occurrences })}
          </Descriptions.Item>
        )}
      </Descriptions>

      {/* The device's cameras, at the alarm's recording where they keep one (nothing without a camera). */}
      <CameraLink thingId={alarm.thingId} at={alarm.alarmAt} />

      <div>
        <h3 style={{ fontSize: 15 }}>{t('alarms.detail.chart')}</h3>
        <AlarmChart alarm={alarm} />
      </div>

      <div>
        <h3 style={{ fontSize: 15 }}>{t('alarms.detail.actions')}</h3>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Input.TextArea
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            maxLength={500}
            showCount
            rows={2}
            placeholder={t('alarms.detail.commentPlaceholder')}
            aria-label={t('alarms.detail.comment')}
            data-testid="alarm-comment"
          />
          <Space wrap>
            {can.acknowledge && (
              <Button
                type="primary"
                loading={action.isPending}
                onClick={() => act({ action: 'acknowledge' })}
                data-testid="alarm-acknowledge"
              >
                {t('alarms.detail.acknowledge')}
              </Button>
            )}
            <Button
              disabled={!comment.trim()}
              loading={action.isPending}
              onClick={() => act({ action: 'comment' })}
              data-testid="alarm-add-comment"
            >
              {t('alarms.detail.addComment')}
            </Button>
            {can.unshelve && (
              <Button loading={action.isPending} onClick={() => act({ action: 'unshelve' })}>
                {t('alarms.detail.unshelve')}
              </Button>
            )}
            {can.close && canClose && (
              <Button danger loading={action.isPending} onClick={() => act({ action: 'close' })}>
                {t('alarms.detail.close')}
              </Button>
            )}
          </Space>
          {can.shelve && (
            <Space wrap>
              <DatePicker
                showTime={{ format: 'HH:mm' }}
                format="YYYY-MM-DD HH:mm"
                value={until}
                onChange={setUntil}
                placeholder={t('alarms.detail.shelveUntil')}
                aria-label={t('alarms.detail.shelveUntil')}
                disabledDate={(d) => d.isBefore(now, 'day') || d.isAfter(latest)}
              />
              <Button
                disabled={!until}
                loading={action.isPending}
                onClick={() => until && act({ action: 'shelve', until: until.valueOf() })}
              >
                {t('alarms.detail.shelve')}
              </Button>
              <span style={{ color: 'rgba(0,0,0,0.6)', fontSize: 12 }}>
                {t('alarms.detail.shelveHint', { days: MAX_SHELVE_DAYS })}
              </span>
            </Space>
          )}
        </Space>
      </div>

      {canClose && <OutOfServiceSection alarm={alarm} />}

      <div>
        <h3 style={{ fontSize: 15 }}>{t('alarms.detail.trail')}</h3>
        {alarm.actions.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.detail.noActions')} />
        ) : (
          <Timeline
            data-testid="alarm-trail"
            items={alarm.actions.map((a) => ({
              key: a.id,
              content: (
                <div>
                  <strong>{t(`alarms.detail.action.${a.action}`)}</strong> · {a.username} · {formatTime(a.at)}
                  {a.until && <div>{t('alarms.detail.untilOn', { time: formatTime(a.until) })}</div>}
                  {a.comment && <div style={{ whiteSpace: 'pre-wrap' }}>{a.comment}</div>}
                </div>
              ),
            }))}
          />
        )}
      </div>
    </Space>
  );
}

/**
 * Out of service (ISA-18.2) for this alarm's rule on its thing: take it out with a reason (the
 * engine stops watching it and this alarm, if open, closes), or return it to service.
 */
function OutOfServiceSection({ alarm }: { alarm: AlarmDetail }) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const entries = useOutOfService({ page: 1, pageSize: 1, ruleId: alarm.ruleId, thingId: alarm.thingId });
  const take = useTakeOutOfService();
  const back = useReturnToService();
  const [reason, setReason] = useState('');
  const entry = entries.data?.list[0];
  const name = `${alarm.ruleName} · ${alarm.thingName}`;

  const confirmTake = () =>
    confirm({
      title: t('alarms.outOfService.takeTitle'),
      content: t('alarms.outOfService.takeConfirm', { name }),
      okText: t('alarms.outOfService.take'),
      done: t('alarms.outOfService.taken'),
      danger: true,
      onOk: () =>
        take
          .mutateAsync({ ruleId: alarm.ruleId, thingId: alarm.thingId, reason: reason.trim() })
          .then(() => setReason('')),
    });

  return (
    <div data-testid="alarm-oos">
      <h3 style={{ fontSize: 15 }}>{t('alarms.outOfService.title')}</h3>
      {entry ? (
        <Alert
          type="warning"
          showIcon
          title={t('alarms.outOfService.isOut', { name })}
          description={t('alarms.outOfService.detail', {
            reason: entry.reason,
            by: entry.username,
            time: formatTime(entry.createdAt),
          })}
          action={
            <Button
              size="small"
              loading={back.isPending}
              onClick={() =>
                back.mutate(entry.id, { onSuccess: () => notify.success(t('alarms.outOfService.returned')) })
              }
              data-testid="alarm-oos-return"
            >
              {t('alarms.outOfService.return')}
            </Button>
          }
        />
      ) : (
        <Space wrap>
          <Input
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={200}
            style={{ width: 260 }}
            placeholder={t('alarms.outOfService.reasonPlaceholder')}
            aria-label={t('alarms.outOfService.reason')}
            data-testid="alarm-oos-reason"
          />
          <Button
            danger
            disabled={!reason.trim() || entries.isPending}
            loading={take.isPending}
            onClick={confirmTake}
            data-testid="alarm-oos-take"
          >
            {t('alarms.outOfService.take')}
          </Button>
        </Space>
      )}
    </div>
  );
}
