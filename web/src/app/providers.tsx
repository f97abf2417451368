import { DEFAULT_THEME_COLOR, type Language, type Size } from '@kilowatch/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, Spin, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import esES from 'antd/locale/es_ES';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isCanceled } from '../lib/http.ts';
import { useLoadingStore } from '../lib/loading.ts';
import { setNotifier, TOAST_SECONDS } from '../lib/notify.ts';
import { useUi } from './ui-store.ts';

const ANTD_LOCALES = { zh: zhCN, en: enUS, es: esES } as const;
const DAYJS_LOCALES: Record<Language, string> = { zh: 'zh-cn', en: 'en', es: 'es' };
const ANTD_SIZES: Record<Size, 'middle' | 'small'> = { medium: 'middle', small: 'small', mini: 'small' };

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => !isCanceled(error) && count < 1,
      refetchOnWindowFocus: false,
    },
  },
});

/** Connects the non-React toasts (http, guard) to antd's themed, localised message API. */
function NotifierBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    setNotifier({
      success: (text) => void message.success(text, TOAST_SECONDS),
      warning: (text) => void message.warning(text, TOAST_SECONDS),
      error: (text) => void message.error(text, TOAST_SECONDS),
    });
  }, [message]);
  return null;
}

/** The global 加载中... overlay for foreground calls (spec §7). */
function LoadingOverlay() {
  const { t } = useTranslation();
  const pending = useLoadingStore((s) => s.pending);
  return <Spin fullscreen spinning={pending > 0} description={t('http.loading')} delay={150} />;
}

export function Providers({ children }: { children: ReactNode }) {
  const language = useUi((s) => s.language);
  const size = useUi((s) => s.size);
  useEffect(() => {
    dayjs.locale(DAYJS_LOCALES[language]);
    document.documentElement.lang = language;
  }, [language]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={ANTD_LOCALES[language]}
        componentSize={ANTD_SIZES[size]}
        theme={{
          token: { colorPrimary: DEFAULT_THEME_COLOR },
          algorithm:
            size === 'mini' ? [theme.defaultAlgorithm, theme.compactAlgorithm] : theme.defaultAlgorithm,
        }}
      >
        <AntApp>
          <NotifierBridge />
          <LoadingOverlay />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
