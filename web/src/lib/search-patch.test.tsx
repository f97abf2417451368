import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigationType } from 'react-router';
import { describe, expect, it } from 'vitest';
import { patchSearch, useSearchPatch } from './search-patch.ts';

describe('patchSearch', () => {
  it('sets the keys named, removes null, undefined and empty ones, and keeps the others', () => {
    const next = patchSearch(new URLSearchParams('page=3&name=pump&region=7'), {
      page: null,
      name: '',
      region: undefined,
      categoryId: 4,
      presence: 'online',
    });
    expect(next.toString()).toBe('categoryId=4&presence=online');
    expect(patchSearch(new URLSearchParams('a=1&b=2'), { b: 3 }).toString()).toBe('a=1&b=3');
  });
});

describe('useSearchPatch', () => {
  it('patches the address and replaces the history entry', () => {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <MemoryRouter initialEntries={['/list?page=2&name=x']}>{children}</MemoryRouter>
    );
    const { result } = renderHook(
      () => {
        const [search, patch] = useSearchPatch();
        return { search, patch, location: useLocation(), navigation: useNavigationType() };
      },
      { wrapper },
    );
    act(() => result.current.patch({ page: null, presence: 'never' }));
    expect(result.current.search.toString()).toBe('name=x&presence=never');
    expect(result.current.location.pathname).toBe('/list');
    expect(result.current.navigation).toBe('REPLACE');
  });
});
