import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { PASSWORD_PATTERN } from '@kilowatch/contract';
import { Button } from 'antd';
// Not antd's `Input`: it carries TextArea, Search and OTP as properties, which no bundler can drop.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LanguageButtons } from '../../components/LanguageButtons.tsx';
import { HttpError } from '../../lib/http.ts';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../lib/session.ts';
import styles from './login.module.css';

type Field = 'username' | 'password';

/** Where to go after login: the guard's `redirect`, else the cleared session's `redirectUrl`, else home. */
export const afterLoginPath = (params: URLSearchParams) => {
  const target = params.get('redirect') || params.get('redirectUrl') || '/';
  // '//host' and '/\host' are absolute to the router and the browser: only same-app paths pass.
  return target.startsWith('/') && !/^[\\/]{2}/.test(target) ? target : '/';
};

/** The message under each field, or none: username required, password by the spec's rule. */
const validate = (username: string, password: string): Record<Field, string | null> => ({
  username: username.trim() ? null : 'login.usernameRequired',
  password: PASSWORD_PATTERN.test(password) ? null : 'login.passwordRule',
});

/**
 * A plain form rather than antd's Form and Card (which bring Tooltip, Tabs and a validator):
 * the login page's first load is budgeted (e2e/tests/login-budget.spec.ts). Fields are checked on submit,
 * then as they change.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [submitting, setSubmitting] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState<Record<Field, boolean>>({ username: false, password: false });
  const errors = validate(username, password);
  const shown = (field: Field) => (checked[field] ? errors[field] : null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setChecked({ username: true, password: true });
    if (errors.username || errors.password) return;
    setSubmitting(true);
    try {
      // The login call, its contract schemas and the cipher load on submit, not with the page.
      const { login } = await import('../../api/auth.ts');
      const pair = await login(username.trim(), password);
      useSession.getState().setTokens(pair.token, pair.refreshToken);
      navigate(afterLoginPath(params), { replace: true });
    } catch (error) {
      // The http module already showed the server's message; a chunk that failed to load did not.
      if (!(error instanceof HttpError)) notify.error(t('http.network'));
    } finally {
      setSubmitting(false);
    }
  }

  const usernameError = shown('username');
  const passwordError = shown('password');
  return (
    <div className={styles.page}>
      <header className={styles.language}>
        <LanguageButtons />
      </header>
      <main className={styles.card}>
        <h1 className={styles.title}>{t('login.title')}</h1>
        <form name="login" onSubmit={onSubmit} autoComplete="on" noValidate>
          <div className={styles.field}>
            <Input
              size="large"
              name="username"
              prefix={<UserOutlined />}
              placeholder={t('login.username')}
              aria-label={t('login.username')}
              autoComplete="username"
              autoFocus
              value={username}
              status={usernameError ? 'error' : undefined}
              aria-invalid={Boolean(usernameError)}
              aria-describedby={usernameError ? 'login-username-error' : undefined}
              onChange={(e) => setUsername(e.target.value.trimStart())}
              onBlur={() => username && setChecked((c) => ({ ...c, username: true }))}
            />
            {usernameError && (
              <div id="login-username-error" className={styles.error} role="alert">
                {t(usernameError)}
              </div>
            )}
          </div>
          <div className={styles.field}>
            <Password
              size="large"
              name="password"
              prefix={<LockOutlined />}
              placeholder={t('login.password')}
              aria-label={t('login.password')}
              autoComplete="current-password"
              value={password}
              status={passwordError ? 'error' : undefined}
              aria-invalid={Boolean(passwordError)}
              aria-describedby={passwordError ? 'login-password-error' : undefined}
              onChange={(e) => setPassword(e.target.value)}
              onBlur={() => password && setChecked((c) => ({ ...c, password: true }))}
              onKeyUp={(e) => setCapsLock(e.getModifierState('CapsLock'))}
            />
            {passwordError && (
              <div id="login-password-error" className={styles.error} role="alert">
                {t(passwordError)}
              </div>
            )}
            {capsLock && (
              <div className={styles.warning} role="status">
                {t('login.capsLock')}
              </div>
            )}
          </div>
          <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
            {t('login.submit')}
          </Button>
        </form>
      </main>
    </div>
  );
}
