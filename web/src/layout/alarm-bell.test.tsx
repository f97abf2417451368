import type { AlarmHistoryItem } from '@kilowatch/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../lib/i18n.ts';
import { keys } from '../api/keys.ts';
import { useSession } from '../lib/session.ts';
import { type FetchCall, mockApi, renderScreen } from '../testing/render-with-api.tsx';
import { AlarmBell, cutName } from './AlarmBell.tsx';
import { AlarmSound, type AudioContextLike, SEVERITY_TONES } from './alarm-sound.ts';

const alarm = (id: number, over: Partial<AlarmHistoryItem> = {}): AlarmHistoryItem => ({
  id,
  ruleId: 1,
  ruleName: '空压机排气温度过高',
  templateName: '',
  resourceType: 'thing',
  resourceId: 7,
  resourceName: '1号空压机',
  thingId: 7,
  thingName: '1号空压机',
  ability: 'temp',
  severity: 'major',
  message: '',
  value: '95',
  alarmAt: '2026-11-23T08:00:00.000Z',
  returnedAt: null,
  state: 1,
  shelvedUntil: null,
  chattering: false,
  occurrences: 1,
  ...over,
});

/** A fake AudioContext: counts beeps (oscillators started) and can start blocked. */
function fakeAudio(initial: 'running' | 'suspended' = 'running') {
  const audio = {
    state: initial as string,
    beeps: [] as number[],
    resumes: 0,
    context: null as AudioContextLike | null,
  };
  const param = () => ({ value: 0, setValueAtTime() {}, linearRampToValueAtTime() {} });
  audio.context = {
    get state() {
      return audio.state;
    },
    currentTime: 0,
    destination: {} as AudioNode,
    async resume() {
      audio.resumes++;
    },
    createOscillator: () => {
      const osc = {
        type: 'sine',
        frequency: param(),
        connect() {},
        start() {
          audio.beeps.push(osc.frequency.value);
        },
        stop() {},
      };
      return osc as unknown as OscillatorNode;
    },
    createGain: () => ({ gain: param(), connect() {} }) as unknown as GainNode,
  };
  return audio;
}

let answer: { list: AlarmHistoryItem[]; size: number };
let calls: FetchCall[];

beforeEach(() => {
  useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] });
  answer = { list: [], size: 0 };
  calls = mockApi((c) =>
    c.path === '/api/alarm/history'
      ? { body: { ...answer, hasNextPage: answer.size > answer.list.length } }
      : undefined,
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const bellCalls = () => calls.filter((c) => c.path === '/api/alarm/history');

describe('cutName', () => {
  it('cuts at 20 characters plus an ellipsis, counting Chinese characters as one', () => {
    expect(cutName('一二三四五六七八九十一二三四五六七八九十')).toBe(
      '一二三四五六七八九十一二三四五六七八九十',
    );
    expect(cutName('一二三四五六七八九十一二三四五六七八九十一')).toBe(
      '一二三四五六七八九十一二三四五六七八九十…',
    );
    expect(cutName('short')).toBe('short');
  });
});

describe('<AlarmBell>', { timeout: 30_000 }, () => {
  it('asks for page 1, 5 items, state 1, and caps the badge at 99+', async () => {
    answer = { list: [alarm(1)], size: 120 };
    renderScreen(<AlarmBell sound={{ makeContext: () => fakeAudio().context!, hasGesture: () => true }} />);
    await waitFor(() => expect(screen.getByText('99+')).toBeTruthy());
    const q = bellCalls()[0]!.query;
    expect([q.get('page'), q.get('pageSize'), q.get('state')]).toEqual(['1', '5', '1']);
  });

  it('lists resource type as 区域/设备 and names cut at 20 characters', async () => {
    answer = {
      list: [
        alarm(5, {
          resourceType: 'region',
          resourceName: '一号厂区二号车间三号产线四号工位五号区域六',
          ruleName: 'r',
        }),
        alarm(4, { ruleName: 'A rule name that is much longer than twenty' }),
      ],
      size: 2,
    };
    renderScreen(<AlarmBell sound={{ makeContext: () => fakeAudio().context!, hasGesture: () => true }} />);
    await waitFor(() =>
      expect(screen.getByTestId('alarm-bell').getAttribute('aria-label')).toBe('告警 2 条'),
    );
    fireEvent.click(screen.getByTestId('alarm-bell'));
    const items = await screen.findAllByTestId('alarm-bell-item');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('区域');
    expect(items[0]!.textContent).toContain('一号厂区二号车间三号产线四号工位五号区域…');
    expect(items[1]!.textContent).toContain('设备');
    expect(items[1]!.textContent).toContain('A rule name that is …');
  });

  it('polls every 10 s and at once when an alarm write invalidates the alarms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { client } = renderScreen(
      <AlarmBell sound={{ makeContext: () => fakeAudio().context!, hasGesture: () => true }} />,
    );
    await waitFor(() => expect(bellCalls()).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(bellCalls()).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    await waitFor(() => expect(bellCalls()).toHaveLength(2));
    await act(() => client.invalidateQueries({ queryKey: keys.alarms.all }));
    await waitFor(() => expect(bellCalls()).toHaveLength(3));
  });

  it('sounds while alarms ring and stops when the count falls to 0', async () => {
    const audio = fakeAudio();
    answer = { list: [alarm(1, { severity: 'critical' })], size: 1 };
    const { client } = renderScreen(
      <AlarmBell sound={{ makeContext: () => audio.context!, hasGesture: () => true }} />,
    );
    await waitFor(() => expect(audio.beeps.length).toBe(SEVERITY_TONES.critical.beeps));
    expect(audio.beeps[0]).toBe(SEVERITY_TONES.critical.hz);
    answer = { list: [], size: 0 };
    const before = audio.beeps.length;
    await act(() => client.invalidateQueries({ queryKey: keys.alarms.all }));
    await waitFor(() =>
      expect(screen.getByTestId('alarm-bell').getAttribute('aria-label')).toBe('告警 0 条'),
    );
    await new Promise((r) => setTimeout(r, 2_300));
    expect(audio.beeps.length).toBe(before);
  });

  it('shows the blocked indicator before a gesture and starts on the first click', async () => {
    const audio = fakeAudio('suspended');
    let gesture = false;
    answer = { list: [alarm(1)], size: 1 };
    renderScreen(<AlarmBell sound={{ makeContext: () => audio.context!, hasGesture: () => gesture }} />);
    expect(await screen.findByRole('img', { name: /浏览器阻止了告警声音/ })).toBeTruthy();
    expect(audio.beeps).toHaveLength(0);
    gesture = true;
    audio.state = 'running';
    fireEvent.pointerDown(document.body);
    await waitFor(() => expect(screen.queryByRole('img', { name: /浏览器阻止了告警声音/ })).toBeNull());
    expect(audio.resumes).toBeGreaterThan(0);
  });

  it('"mute until a new alarm" stays muted for the same alarms and ends on a newer one', async () => {
    const audio = fakeAudio();
    answer = { list: [alarm(3)], size: 1 };
    const { client } = renderScreen(
      <AlarmBell sound={{ makeContext: () => audio.context!, hasGesture: () => true }} />,
    );
    await waitFor(() => expect(audio.beeps.length).toBeGreaterThan(0));
    fireEvent.click(screen.getByTestId('alarm-bell'));
    fireEvent.click(await screen.findByTestId('alarm-bell-mute'));
    expect(screen.getByTestId('alarm-bell-mute').textContent).toContain('取消静音');
    expect(screen.getByRole('img', { name: '已静音，出现新告警时恢复' })).toBeTruthy();
    await act(() => client.invalidateQueries({ queryKey: keys.alarms.all }));
    await waitFor(() => expect(bellCalls().length).toBe(2));
    expect(screen.getByTestId('alarm-bell-mute').textContent).toContain('取消静音');
    const silent = audio.beeps.length;
    await new Promise((r) => setTimeout(r, 2_300));
    expect(audio.beeps.length).toBe(silent);
    answer = { list: [alarm(4), alarm(3)], size: 2 };
    await act(() => client.invalidateQueries({ queryKey: keys.alarms.all }));
    await waitFor(() => expect(screen.getByTestId('alarm-bell-mute').textContent).toContain('静音至新告警'));
    expect(screen.queryByTestId('alarm-bell-muted')).toBeNull();
    await waitFor(() => expect(audio.beeps.length).toBeGreaterThan(silent));
  });
});

describe('AlarmSound', () => {
  it('pauses: no beep after pause()', () => {
    vi.useFakeTimers();
    const audio = fakeAudio();
    const sound = new AlarmSound({ makeContext: () => audio.context!, hasGesture: () => true });
    sound.play('warning');
    expect(audio.beeps).toEqual([SEVERITY_TONES.warning.hz]);
    vi.advanceTimersByTime(2_000);
    expect(audio.beeps).toHaveLength(2);
    sound.pause();
    vi.advanceTimersByTime(10_000);
    expect(audio.beeps).toHaveLength(2);
    expect(sound.playing).toBe(false);
  });
});
