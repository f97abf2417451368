import { describe, expect, it } from 'vitest';
import { createLoginThrottle } from './throttle.ts';

describe('login throttle', () => {
  const setup = () => {
    let time = 1_000_000;
    const throttle = createLoginThrottle({ now: () => time });
    return { throttle, advance: (ms: number) => (time += ms) };
  };

  it('blocks a username after 5 failures in 15 minutes, case-insensitively, then lets it go', () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 5; i++) {
      expect(throttle.retryAfter('Admin', '1.1.1.1')).toBe(0);
      throttle.recordFailure('admin', `1.1.1.${i}`);
      advance(60_000);
    }
    // The oldest failure ages out 15 minutes after it happened, i.e. in 10 minutes.
    expect(throttle.retryAfter('ADMIN', '9.9.9.9')).toBe(10 * 60);
    advance(10 * 60_000);
    expect(throttle.retryAfter('admin', '9.9.9.9')).toBe(0);
  });

  it('blocks an address after 20 failures across usernames', () => {
    const { throttle } = setup();
    for (let i = 0; i < 20; i++) throttle.recordFailure(`user${i}`, '2.2.2.2');
    expect(throttle.retryAfter('someone-else', '2.2.2.2')).toBe(15 * 60);
    expect(throttle.retryAfter('someone-else', '3.3.3.3')).toBe(0);
  });

  it('forgets a username’s failures on success but keeps the address count', () => {
    const { throttle } = setup();
    for (let i = 0; i < 4; i++) throttle.recordFailure('admin', '4.4.4.4');
    throttle.recordSuccess('Admin');
    throttle.recordFailure('admin', '4.4.4.4');
    expect(throttle.retryAfter('admin', '5.5.5.5')).toBe(0);
  });
});
