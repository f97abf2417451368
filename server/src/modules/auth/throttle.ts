export interface ThrottleOptions {
  /** Milliseconds since the epoch; injected so tests can let the window pass. */
  now: () => number;
  maxPerUsername?: number;
  maxPerIp?: number;
  windowMs?: number;
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/** Above this many tracked keys, a lookup also sweeps keys whose failures have all aged out. */
const SWEEP_THRESHOLD = 10_000;

/**
 * Counts failed logins per username (case-insensitive) and per client address over a sliding
 * window. State is in this process's memory: several replicas would need a shared store.
 */
export function createLoginThrottle({
  now,
  maxPerUsername = 5,
  maxPerIp = 20,
  windowMs = 15 * 60_000,
}: ThrottleOptions) {
  const failures = new Map<string, number[]>();

  const recent = (key: string, at: number): number[] => {
    const kept = (failures.get(key) ?? []).filter((t) => t > at - windowMs);
    if (kept.length) failures.set(key, kept);
    else failures.delete(key);
    return kept;
  };

  /** Seconds until `key` drops below `max` failures, or 0 when it is below already. */
  const wait = (key: string, max: number, at: number): number => {
    const times = recent(key, at);
    if (times.length < max) return 0;
    const freeAt = (times[times.length - max] ?? at) + windowMs;
    return Math.max(1, Math.ceil((freeAt - at) / 1000));
  };

  const sweep = (at: number) => {
    if (failures.size <= SWEEP_THRESHOLD) return;
    for (const key of [...failures.keys()]) recent(key, at);
  };

  const userKey = (username: string) => `u:${username.toLowerCase()}`;
  const ipKey = (ip: string) => `ip:${ip}`;

  return {
    /** Seconds the caller must wait before trying again; 0 when the attempt may proceed. */
    retryAfter(username: string, ip: string): number {
      const at = now();
      sweep(at);
      return Math.max(wait(userKey(username), maxPerUsername, at), wait(ipKey(ip), maxPerIp, at));
    },

    recordFailure(username: string, ip: string): void {
      const at = now();
      for (const key of [userKey(username), ipKey(ip)]) failures.set(key, [...recent(key, at), at]);
    },

    /** A successful login clears the username's count; the address keeps its own. */
    recordSuccess(username: string): void {
      failures.delete(userKey(username));
    },
  };
}
