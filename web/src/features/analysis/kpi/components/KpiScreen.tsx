import { PERIODS, type Period } from '@kilowatch/contract';
import { Card, Col, Empty, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportTree } from '../../../../api/reports.ts';
import { useSearchPatch } from '../../../../lib/search-patch.ts';
import { isAdmin, isGranted, useSession } from '../../../../lib/session.ts';
import { flatten } from '../lib/tree.ts';
import { ReportTree } from './ReportTree.tsx';
import { ReportView } from './ReportView.tsx';

/** The KPI screen's route: its grant lets a non-admin write reports (docs/permissions.md). */
const KPI_PATH = '/analysis/kpi';

const isPeriod = (value: string | null): value is Period =>
  (PERIODS as readonly string[]).includes(value ?? '');

/**
 * /analysis/kpi (spec §2): report folders beside the selected report. The selection, period and
 * date live in the address (`?report={id}`), so a report's link is stable and shareable.
 */
export function KpiScreen() {
  const { t } = useTranslation();
  const [params, update] = useSearchPatch();
  const tree = useReportTree();
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  const admin = isAdmin(roles);
  const canEdit = admin || isGranted(grants, KPI_PATH);

  const nodes = useMemo(() => flatten(tree.data ?? []), [tree.data]);
  const selectedId = Number(params.get('report')) || null;
  const selected = nodes.find((n) => n.id === selectedId) ?? null;
  const periodParam = params.get('period');
  const period: Period = isPeriod(periodParam) ? periodParam : 'day';
  const time = Number(params.get('time')) || Date.now();

  return (
    // The report keeps at least a phone's width: narrower, it goes under the tree.
    <Row gutter={[12, 12]} style={{ alignItems: 'flex-start' }}>
      <Col flex="280px" style={{ minWidth: 240 }}>
        <ReportTree
          tree={tree.data ?? []}
          loading={tree.isPending}
          selected={selected}
          onSelect={(node) => update({ report: node ? String(node.id) : null })}
          canEdit={canEdit}
          admin={admin}
        />
      </Col>
      <Col flex="auto" style={{ minWidth: 'min(100%, 340px)' }}>
        {selected?.report ? (
          <ReportView
            key={selected.id}
            report={selected}
            period={period}
            time={time}
            onPeriod={(p, at) => update({ period: p, time: String(at) })}
            canEdit={canEdit}
            admin={admin}
          />
        ) : (
          <Card>
            <Empty
              description={selectedId && !tree.isPending && !selected ? t('kpi.missing') : t('kpi.pick')}
            />
          </Card>
        )}
      </Col>
    </Row>
  );
}
