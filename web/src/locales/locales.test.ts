import { describe, expect, it } from 'vitest';
import { loadMessages } from '../lib/i18n.ts';

type Tree = { [key: string]: string | Tree };

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([k, v]) =>
      typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flatten(v, `${prefix}${k}.`)),
    ),
  );

// The merged messages: the shell's and every feature's (features/<domain>/locales).
const locales = {
  zh: flatten((await loadMessages('zh')) as Tree),
  en: flatten((await loadMessages('en')) as Tree),
  es: flatten((await loadMessages('es')) as Tree),
};

describe('locales', () => {
  it('zh, en and es have exactly the same keys', () => {
    const zhKeys = Object.keys(locales.zh).sort();
    expect(zhKeys.length).toBeGreaterThan(50);
    expect(Object.keys(locales.en).sort()).toEqual(zhKeys);
    expect(Object.keys(locales.es).sort()).toEqual(zhKeys);
  });

  it('en and es carry the same {{placeholders}} as zh', () => {
    const placeholders = (text: string) => (text.match(/{{\s*\w+\s*}}/g) ?? []).sort();
    for (const lang of ['en', 'es'] as const) {
      for (const [key, value] of Object.entries(locales.zh)) {
        expect(placeholders(locales[lang][key] ?? ''), `${lang}:${key}`).toEqual(placeholders(value));
      }
    }
  });

  it('the feature strings that quote the spec are word for word', () => {
    expect(locales.zh).toMatchObject({
      'system.user.passwordRule': '请输入6~20位英文字符',
      'system.user.level.admin': '管理员',
      'system.user.level.editor': '编辑',
    });
  });

  it('every feature brings its strings', () => {
    for (const domain of ['devices', 'system', 'regions', 'monitoring', 'home', 'charts']) {
      expect(
        Object.keys(locales.zh).some((k) => k.startsWith(`${domain}.`)),
        domain,
      ).toBe(true);
    }
  });

  it('every value is a non-empty string', () => {
    for (const [lang, entries] of Object.entries(locales)) {
      for (const [key, value] of Object.entries(entries)) {
        expect(typeof value, `${lang}:${key}`).toBe('string');
        expect(value.trim(), `${lang}:${key}`).not.toBe('');
      }
    }
  });

  it('the zh strings of the error catalogue are word for word', () => {
    expect(locales.zh).toMatchObject({
      'http.timeout': '请求超时，请稍后重试',
      'http.network': '网络错误，请检查网络连接是否正常',
      'http.system': '系统错误，请联系管理员',
      'http.sessionTimeout': '登录超时，请重新登录！',
      'http.relogin': '重新登录',
      'http.loading': '加载中...',
      'toast.updated': '修改成功',
      'toast.created': '创建成功',
      'toast.deleted': '删除成功',
      'toast.done': '操作成功',
      'toast.added': '添加成功',
      'toast.languageSwitched': 'Switch Language Success',
      'login.passwordRule': '请输入6~20位英文字符',
      'navbar.fullscreenUnsupported': 'you browser can not work',
      'guard.verifyFailed': 'Verification failed, please login again',
    });
  });

  it('the strings the spec quotes in English are the same in every language', () => {
    for (const entries of Object.values(locales)) {
      expect(entries['toast.languageSwitched']).toBe('Switch Language Success');
      expect(entries['navbar.fullscreenUnsupported']).toBe('you browser can not work');
    }
    expect(locales.en['guard.verifyFailed']).toBe('Verification failed, please login again');
  });

  it('interpolation placeholders match across languages', () => {
    const placeholders = (s: string) => (s.match(/{{\s*\w+\s*}}/g) ?? []).sort();
    for (const [key, value] of Object.entries(locales.zh)) {
      expect(placeholders(locales.en[key] ?? ''), `en:${key}`).toEqual(placeholders(value));
      expect(placeholders(locales.es[key] ?? ''), `es:${key}`).toEqual(placeholders(value));
    }
  });
});
