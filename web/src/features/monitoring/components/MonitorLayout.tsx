import { Col, Row } from 'antd';
import type { ReactNode } from 'react';
import { ResourcePanel } from './ResourcePanel.tsx';
import type { MonitorContext } from './use-monitor.ts';

/** Tree on the left, the view on the right; stacked below 992 px. */
export function MonitorLayout({ ctx, children }: { ctx: MonitorContext; children: ReactNode }) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={6} xxl={5}>
        <ResourcePanel ctx={ctx} />
      </Col>
      <Col xs={24} lg={18} xxl={19}>
        {children}
      </Col>
    </Row>
  );
}
