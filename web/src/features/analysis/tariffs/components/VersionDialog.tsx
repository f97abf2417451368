import { checkVersion, type Tariff, type TariffVersion } from '@kilowatch/contract';
import { Alert, App, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveTariffVersion } from '../../../../api/tariffs.ts';
import { validValues } from '../../../../lib/form.ts';
import { notify } from '../../../../lib/notify.ts';
import { usePlantCalendar } from '../../../../lib/plant-calendar.ts';
import { issueText } from '../lib/band-strip.ts';
import { formOfVersion, type VersionFormValues, versionOfForm } from '../lib/version-form.ts';
import { VersionFields } from './VersionFields.tsx';

/** What the dialog edits: a version of a tariff, or a new one starting from a copy of `from`. */
export interface VersionTarget {
  tariff: Tariff;
  version: TariffVersion | null;
}

const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * New prices or bands from a date on (a new version, copied from the latest), or a change of one
 * version. A change that reaches a started day asks first: it recomputes past costs (docs/tariffs.md).
 */
export function VersionDialog({ target, onClose }: { target: VersionTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const calendar = usePlantCalendar();
  const today = calendar.dateOf(Date.now());
  const [form] = Form.useForm<VersionFormValues>();
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveTariffVersion();
  const { tariff, version } = target;
  const latest = tariff.versions.at(-1);
  const initial = version
    ? formOfVersion(version)
    : latest
      ? formOfVersion(latest, nextDay(today > latest.validFrom ? today : latest.validFrom))
      : undefined;

  const submit = async () => {
    if (!(await validValues(form))) return;
    const body = versionOfForm(form.getFieldsValue(true) as VersionFormValues);
    const issue = checkVersion(body);
    setProblem(issue ? issueText(issue, t) : null);
    if (issue) return;
    const from = version && version.validFrom < body.validFrom ? version.validFrom : body.validFrom;
    const send = async (retroactive: boolean) => {
      const answer = await save.mutateAsync({
        id: tariff.id,
        versionId: version?.id ?? null,
        body: { ...body, retroactive },
      });
      notify.success(answer.recomputed ? t('tariffs.recomputed', answer.recomputed) : t('toast.done'));
      onClose();
    };
    if (from <= today) {
      modal.confirm({
        title: t('tariffs.retroactiveTitle'),
        content: t('tariffs.retroactiveContent', { from }),
        okText: t('common.confirm'),
        cancelText: t('common.cancel'),
        onOk: () => send(true).catch(() => undefined),
      });
    } else {
      await send(false).catch(() => undefined);
    }
  };

  return (
    <Modal
      open
      width={900}
      title={version ? t('tariffs.editVersion') : t('tariffs.newVersion')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} preserve>
        <VersionFields form={form} />
      </Form>
      {problem && <Alert type="error" showIcon title={problem} style={{ marginTop: 12 }} />}
    </Modal>
  );
}
