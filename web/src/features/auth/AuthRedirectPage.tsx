import { Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Return address of a third-party sign-in: hands what it received (query and hash of the
 * address) to the window that opened it, then closes.
 */
export function AuthRedirectPage() {
  const { t } = useTranslation();
  useEffect(() => {
    const received = { search: window.location.search, hash: window.location.hash };
    window.opener?.postMessage({ type: 'kilowatch:auth-redirect', ...received }, window.location.origin);
    window.close();
  }, []);
  return <Result status="success" title={t('authRedirect.done')} />;
}
