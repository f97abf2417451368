import { describe, expect, it } from 'vitest';
import { afterLoginPath } from './LoginPage.tsx';

const after = (query: string) => afterLoginPath(new URLSearchParams(query));

describe('afterLoginPath', () => {
  it('prefers redirect', () => {
    expect(after(`redirect=${encodeURIComponent('/analysis/kpi?id=2')}&redirectUrl=%2Fvideo`)).toBe(
      '/analysis/kpi?id=2',
    );
  });

  it('then redirectUrl', () => {
    expect(after('redirectUrl=%2Falarm_center%2Falarm_history')).toBe('/alarm_center/alarm_history');
    expect(after('redirect=&redirectUrl=%2Fvideo')).toBe('/video');
  });

  it('then /', () => {
    expect(after('')).toBe('/');
    expect(after('other=1')).toBe('/');
  });

  it('refuses protocol-relative and absolute URLs', () => {
    expect(after('redirect=%2F%2Fevil.com')).toBe('/');
    expect(after('redirect=//evil.com/home')).toBe('/');
    expect(after('redirectUrl=%2F%2Fevil.com')).toBe('/');
    expect(after('redirect=%2F%5Cevil.com')).toBe('/');
    expect(after(`redirect=${encodeURIComponent('https://evil.com/')}`)).toBe('/');
    expect(after(`redirectUrl=${encodeURIComponent('http://evil.com')}`)).toBe('/');
    expect(after(`redirect=${encodeURIComponent('javascript:alert(1)')}`)).toBe('/');
    expect(after('redirect=home')).toBe('/');
  });
});
