// @vitest-environment node
// Node, not jsdom: test-setup.ts loads the features' messages up front for the DOM tests.
import { describe, expect, it } from 'vitest';
import i18n, { featureMessagesReady, i18nReady } from './i18n.ts';

describe("the features' messages", () => {
  it('stay out until the first screen asks for them, then come in whole', async () => {
    await i18nReady;
    expect(i18n.t('login.title')).not.toBe('login.title');
    expect(i18n.exists('system.user.passwordRule')).toBe(false);
    await featureMessagesReady();
    expect(i18n.t('system.user.passwordRule')).toBe('请输入6~20位英文字符');
  });

  it('come with a language chosen after they were asked for', async () => {
    await featureMessagesReady();
    await i18n.changeLanguage('en');
    expect(i18n.exists('system.user.passwordRule')).toBe(true);
    expect(i18n.t('system.user.passwordRule')).not.toBe('请输入6~20位英文字符');
    await i18n.changeLanguage('zh');
  });
});
