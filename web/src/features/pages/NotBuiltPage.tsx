import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A route whose feature arrives in a later release: its title and a plain line, no data. */
export function NotBuiltPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <Typography.Title level={2} style={{ fontSize: 20 }}>
        {t(titleKey)}
      </Typography.Title>
      <Typography.Paragraph type="secondary" data-testid="not-built">
        {t('page.notBuilt')}
      </Typography.Paragraph>
    </Card>
  );
}
