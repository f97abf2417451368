import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { PASSWORD_PATTERN } from '@kilowatch/contract';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import { useSession } from '../../lib/session.ts';
import { login } from './api.ts';
import styles from './login.module.css';

interface LoginForm {
  username: string;
  password: string;
}

/** Where to go after login: the guard's `redirect`, else the cleared session's `redirectUrl`, else home. */
export const afterLoginPath = (params: URLSearchParams) => {
  const target = params.get('redirect') || params.get('redirectUrl') || '/';
  // '//host' and '/\host' are absolute to the router and the browser: only same-app paths pass.
  return target.startsWith('/') && !/^[\\/]{2}/.test(target) ? target : '/';
};

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [submitting, setSubmitting] = useState(false);
  const [capsLock, setCapsLock] = useState(false);

  async function onFinish(values: LoginForm) {
    setSubmitting(true);
    try {
      const pair = await login(values.username.trim(), values.password);
      useSession.getState().setTokens(pair.token, pair.refreshToken);
      navigate(afterLoginPath(params), { replace: true });
    } catch {
      // The http module already showed the server's message.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className={styles.page}>
      <div className={styles.language}>
        <LanguageSwitch />
      </div>
      <Card className={styles.card}>
        <Typography.Title level={3} className={styles.title}>
          {t('login.title')}
        </Typography.Title>
        <Form<LoginForm> name="login" size="large" onFinish={onFinish} autoComplete="on" requiredMark={false}>
          <Form.Item
            name="username"
            normalize={(v: string) => v.trimStart()}
            rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}
          >
            <Input
              prefix={<UserOutlined />}
              placeholder={t('login.username')}
              autoComplete="username"
              autoFocus
            />
          </Form.Item>
          <Form.Item
            name="password"
            rules={[{ required: true, pattern: PASSWORD_PATTERN, message: t('login.passwordRule') }]}
            extra={capsLock ? <Typography.Text type="warning">{t('login.capsLock')}</Typography.Text> : null}
          >
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('login.password')}
              autoComplete="current-password"
              onKeyUp={(e) => setCapsLock(e.getModifierState('CapsLock'))}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {t('login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
