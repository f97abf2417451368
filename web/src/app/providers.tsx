import { LoadingOutlined } from '@ant-design/icons';
import { DEFAULT_THEME_COLOR, type Language, type Size } from '@kilowatch/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { message as antMessage, ConfigProvider, Spin, theme } from 'antd';
import type { Locale } from 'antd/es/locale';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCanceled } from '../lib/http.ts';
import { useLoadingStore } from '../lib/loading.ts';
import { setNotifier, TOAST_SECONDS } from '../lib/notify.ts';
import { type Theme, useUi } from '../lib/ui-store.ts';

/** antd's and dayjs's strings for en and es load when chosen, like the console's own (lib/i18n.ts). */
const LOCALES: Record<Language, () => Promise<Locale>> = {
  zh: async () => zhCN,
  en: async () => (await import('antd/locale/en_US')).default,
  es: async () => {
    await import('dayjs/locale/es');
    return (await import('antd/locale/es_ES')).default;
  },
};
const DAYJS_LOCALES: Record<Language, string> = { zh: 'zh-cn', en: 'en', es: 'es' };
/**
 * Both themes: secondary and description text at 0.6 black (5.7:1 on white) instead of antd's
 * 0.45 (3.36:1). The high-contrast theme also darkens the primary colour so white on it passes
 * 4.5:1; the default keeps the spec's #409EFF (docs/decisions.md).
 */
const TEXT_TOKENS = {
  // Links and danger text are not the spec's primary colour: both themes get AA-passing shades.
  colorLink: '#0b5cad',
  colorError: '#c9302c',
  colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextDescription: 'rgba(0, 0, 0, 0.6)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
};
const HIGH_CONTRAST_PRIMARY = '#0b5cad';
const THEME_TOKENS: Record<Theme, Record<string, string>> = {
  default: { colorPrimary: DEFAULT_THEME_COLOR, ...TEXT_TOKENS },
  highContrast: {
    colorPrimary: HIGH_CONTRAST_PRIMARY,
    colorWarning: '#8a5300',
    colorSuccess: '#2b7a0b',
    ...TEXT_TOKENS,
    colorTextQuaternary: 'rgba(0, 0, 0, 0.55)',
  },
};

const ANTD_SIZES: Record<Size, 'middle' | 'small'> = { medium: 'middle', small: 'small', mini: 'small' };

/**
 * Buttons show their loading icon without antd's grow/shrink motion. That motion removes the icon
 * only when its CSS transition ends; a call answered while the icon is still growing cancels the
 * transition, no transitionend follows, and the invisible icon stayed in the button for good (a
 * dialog's OK read "loading 确 定" long after its call had failed). A set icon skips the motion.
 */
const BUTTON_CONFIG = { loadingIcon: <LoadingOutlined /> };

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => !isCanceled(error) && count < 1,
      refetchOnWindowFocus: false,
    },
  },
});

/**
 * Connects the non-React toasts (http, guard) to antd's themed, localised message API. Only the
 * message hook: antd's App (modal, notification) is in MainLayout, out of the login page's bundle.
 */
function NotifierBridge() {
  const [message, holder] = antMessage.useMessage();
  useEffect(() => {
    setNotifier({
      success: (text) => void message.success(text, TOAST_SECONDS),
      warning: (text) => void message.warning(text, TOAST_SECONDS),
      error: (text) => void message.error(text, TOAST_SECONDS),
    });
  }, [message]);
  return holder;
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
  const colours = useUi((s) => s.theme);
  useEffect(() => {
    document.documentElement.dataset.theme = colours;
  }, [colours]);
  const [antdLocale, setAntdLocale] = useState<Locale>(zhCN);
  useEffect(() => {
    let current = true;
    document.documentElement.lang = language;
    void LOCALES[language]().then((locale) => {
      if (!current) return;
      dayjs.locale(DAYJS_LOCALES[language]);
      setAntdLocale(locale);
    });
    return () => {
      current = false;
    };
  }, [language]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={antdLocale}
        componentSize={ANTD_SIZES[size]}
        button={BUTTON_CONFIG}
        theme={{
          token: THEME_TOKENS[colours],
          algorithm:
            size === 'mini' ? [theme.defaultAlgorithm, theme.compactAlgorithm] : theme.defaultAlgorithm,
        }}
      >
        <NotifierBridge />
        <LoadingOverlay />
        {children}
      </ConfigProvider>
    </QueryClientProvider>
  );
}
