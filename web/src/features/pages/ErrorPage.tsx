import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';

/** The /401 and /404 pages; `noGoBack` (set by the guard) hides the back button. */
export function ErrorPage({ status }: { status: 401 | 404 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const noGoBack = params.get('noGoBack') === 'true';
  return (
    <Result
      status={status === 401 ? '403' : '404'}
      title={status}
      subTitle={t(`page.${status}`)}
      extra={[
        !noGoBack && (
          <Button key="back" onClick={() => navigate(-1)}>
            {t('page.back')}
          </Button>
        ),
        <Button key="home" type="primary" onClick={() => navigate('/')}>
          {t('page.backHome')}
        </Button>,
      ]}
    />
  );
}
