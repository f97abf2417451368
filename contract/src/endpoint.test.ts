import { describe, expect, it } from 'vitest';
import { type Endpoint, isEndpoint } from './endpoint.ts';
import * as contract from './index.ts';

const endpoints = (Object.entries(contract) as [string, unknown][]).filter(
  (entry): entry is [string, Endpoint] => isEndpoint(entry[1]),
);

describe('the endpoints of the contract', () => {
  it('are found', () => {
    expect(endpoints.length).toBeGreaterThan(70);
  });

  it('name each method and path once', () => {
    const seen = endpoints.map(([, e]) => `${e.method} ${e.path}`);
    expect(seen.filter((key, i) => seen.indexOf(key) !== i)).toEqual([]);
  });

  it('declare exactly the parameters their path has', () => {
    const wrong = endpoints.filter(([, e]) => {
      const inPath = [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
      const declared = Object.keys(
        (e.params as { properties?: object } | undefined)?.properties ?? {},
      ).sort();
      return JSON.stringify(inPath) !== JSON.stringify(declared);
    });
    expect(wrong.map(([name]) => name)).toEqual([]);
  });

  it('take a body only where the method carries one, and sit under /api', () => {
    const wrong = endpoints.filter(
      ([, e]) =>
        (e.body !== undefined && (e.method === 'GET' || e.method === 'DELETE')) ||
        !e.path.startsWith('/api/'),
    );
    expect(wrong.map(([name]) => name)).toEqual([]);
  });
});
