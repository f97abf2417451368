import { expect, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin, post } from './api.ts';
import { buttonName, expectPath, finalScreenshot, login, uniqueSuffix } from './helpers.ts';

// Issue 12 "Scheduled reports": on /analysis/kpi, schedule a report to be mailed, see it listed,
// and "send now" recorded as a run. The e2e server has no SMTP server set in the alarm centre, so
// the run fails saying so: a real state the console must show.

test('schedules a report, lists it, and records "send now" as a run', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const suffix = uniqueSuffix();
  const headers = await apiLogin(request);
  const report = await post<{ id: number }>(request, headers, '/api/reports/0/children', {
    name: `定时日报 ${suffix}`,
    folder: false,
  });

  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await page.goto(`/#/analysis/kpi?report=${report.id}`);
  await expect(page.getByTestId('kpi-report-title')).toHaveText(`定时日报 ${suffix}`);

  await page.getByTestId('kpi-schedules').click();
  await expect(page.getByTestId('schedule-empty')).toContainText('该报表还没有定时发送');
  await page.getByTestId('schedule-empty').getByRole('button', { name: '新增定时发送' }).click();

  const form = page.getByTestId('schedule-form');
  const dialog = page.getByRole('dialog').filter({ has: form });
  await form.getByText('每周').click();
  await form.getByLabel('发送时间').fill('7:5');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(form).toContainText('时间格式为 HH:mm，例如 07:00');
  await expect(form).toContainText('请至少填写一个收件人');
  await form.getByLabel('发送时间').fill('07:30');
  await form.getByLabel('收件人').fill(`energy-${suffix}@plant.example`);
  await form.getByLabel('收件人').press('Enter');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(form).toBeHidden();

  const list = page.getByTestId('schedule-list');
  await expect(list).toContainText('每周一 07:30');
  await expect(list).toContainText(`energy-${suffix}@plant.example`);
  await expect(list).toContainText('尚未发送');

  await list.getByLabel('立即发送').click();
  // Without SMTP settings the run fails and says why; with them it would be sent.
  const status = list.getByTestId('schedule-run-status').first();
  await expect(status).toHaveText(/失败|已发送/);
  if ((await status.textContent()) === '失败') {
    await expect(list.getByTestId('schedule-run-error').first()).toContainText('未配置 SMTP 服务器');
  }
  await list
    .getByLabel(/展开行|Expand row/)
    .first()
    .click();
  await expect(page.getByTestId('schedule-runs')).toContainText('手动');

  // The run is in the API's history too.
  const schedules = await (await request.get(`/api/reports/${report.id}/schedules`, { headers })).json();
  expect(schedules.data[0].lastRun).toMatchObject({ trigger: 'manual' });
  await finalScreenshot(page, testInfo);
});
