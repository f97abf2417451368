import { Api } from '../harness.ts';
const api = new Api('http://127.0.0.1:19060');
await api.login();
const MINUTE = 60_000;
const time = async (label: string, f: () => Promise<unknown>) => {
  const ms: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    await f();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(label, ms.map((x) => x.toFixed(1)).join(' '));
};
await time('realtime 1', () => api.call('GET', '/api/query/realtime?resourceType=thing&resourceId=1'));
await time('last5 x10', () => {
  const now = Date.now();
  return api.call('POST', '/api/query/data', { resourceType: 'region', resourceId: 2, metricIdentifier: 'P', combine: 'none', startTime: now - 5 * MINUTE, endTime: now });
});
await time('stats day', () => api.call('POST', '/api/statistics/range', { metricIdentifier: 'EP', period: 'day', resourceType: 'region', resourceIds: [1] }));
