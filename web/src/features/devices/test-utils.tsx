import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import { Providers, queryClient } from '../../app/providers.tsx';

/**
 * Test helpers of the device screens: jsdom polyfills antd needs, a fetch double that answers
 * by method and path and records every call, and a render inside the app's providers.
 */

// Full antd screens in jsdom take seconds to render and animate.
vi.setConfig({ testTimeout: 20_000 });

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> } | unknown;
type Handler = (call: Call) => Answer;

/** `{ 'GET /api/x': handler }`; a handler returns the `data` or `{ status, body }` via reply(). */
export type Routes = Record<string, Handler>;

const REPLY = Symbol('reply');
export const reply = (status: number, body: unknown, headers?: Record<string, string>) => ({
  [REPLY]: true,
  status,
  body,
  headers,
});

export const page = <T,>(list: T[], total = list.length, p = 1, pageSize = 10) => ({
  list,
  total,
  page: p,
  pageSize,
});

/** Replaces fetch; unknown routes answer 404. Returns the recorded calls. */
export function mockApi(routes: Routes): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init.method ?? 'GET').toUpperCase();
      let body: unknown = init.body;
      if (typeof init.body === 'string') body = JSON.parse(init.body);
      const call: Call = { method, path: url.pathname, query: url.searchParams, body };
      calls.push(call);
      const handler =
        routes[`${method} ${url.pathname}`] ??
        Object.entries(routes).find(([key]) => {
          const [m, pattern] = key.split(' ');
          return m === method && new RegExp(`^${pattern!.replace(/:\w+/g, '[^/]+')}$`).test(url.pathname);
        })?.[1];
      if (!handler) return json(404, { code: 'NOT_FOUND', message: `no route ${method} ${url.pathname}` });
      const answer = handler(call) as {
        [REPLY]?: boolean;
        status: number;
        body: unknown;
        headers?: Record<string, string>;
      };
      if (answer && typeof answer === 'object' && answer[REPLY])
        return json(answer.status, answer.body, answer.headers);
      return json(200, { data: answer });
    }),
  );
  return calls;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** Renders a screen at `path` inside the app's providers and a memory router. */
export function renderScreen(element: ReactNode, path: string) {
  queryClient.clear();
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            {element}
            <LocationProbe />
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  return render(
    <Providers>
      {/* The screens' modal.confirm comes from antd's App, which MainLayout provides in the console. */}
      <App>
        <RouterProvider router={router} />
      </App>
    </Providers>,
  );
}

/** Antd puts a space between two CJK characters of a button's label. */
const buttonName = (label: string) => new RegExp(`^\\s*${[...label].join('\\s*')}\\s*$`);

/** Clicks the button labelled `label` inside `container` (by text: antd dialogs may still be animating). */
export function clickButton(container: HTMLElement, label: string | RegExp) {
  const name = typeof label === 'string' ? buttonName(label) : label;
  const button = [...container.querySelectorAll('button')].find((b) => name.test(b.textContent ?? ''));
  if (!button) throw new Error(`no button ${String(name)} in ${container.className}`);
  fireEvent.click(button);
}
