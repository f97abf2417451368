import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { hasAnyRole, Permission } from './permission.tsx';
import { useSession } from './session.ts';

beforeEach(() => {
  useSession.setState({ roles: [] });
});

describe('<Permission>', () => {
  it('throws when roles is empty', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() =>
      render(
        <Permission roles={[]}>
          <button type="button">delete</button>
        </Permission>,
      ),
    ).toThrow(/need roles/);
    spy.mockRestore();
  });

  it('renders its children for a user holding one of the roles', () => {
    useSession.setState({ roles: ['editor'] });
    render(
      <Permission roles={['operator', 'editor']}>
        <button type="button">delete</button>
      </Permission>,
    );
    expect(screen.getByRole('button', { name: 'delete' })).toBeTruthy();
  });

  it('removes them for a user holding none', () => {
    useSession.setState({ roles: ['editor'] });
    const { container } = render(
      <Permission roles={['operator']}>
        <button type="button">delete</button>
      </Permission>,
    );
    expect(screen.queryByRole('button')).toBeNull();
    expect(container.innerHTML).toBe('');
  });

  it('removes them when no roles are loaded', () => {
    render(
      <Permission roles={['editor']}>
        <span>secret</span>
      </Permission>,
    );
    expect(screen.queryByText('secret')).toBeNull();
  });

  it('an admin sees everything', () => {
    useSession.setState({ roles: ['admin'] });
    render(
      <Permission roles={['operator']}>
        <span>secret</span>
      </Permission>,
    );
    expect(screen.getByText('secret')).toBeTruthy();
  });

  it('follows role changes', () => {
    const { rerender } = render(
      <Permission roles={['editor']}>
        <span>secret</span>
      </Permission>,
    );
    expect(screen.queryByText('secret')).toBeNull();
    act(() => useSession.setState({ roles: ['editor'] }));
    rerender(
      <Permission roles={['editor']}>
        <span>secret</span>
      </Permission>,
    );
    expect(screen.getByText('secret')).toBeTruthy();
  });
});

describe('hasAnyRole', () => {
  it('needs one shared role unless admin', () => {
    expect(hasAnyRole(['editor'], ['editor', 'x'])).toBe(true);
    expect(hasAnyRole(['editor'], ['x'])).toBe(false);
    expect(hasAnyRole([], ['x'])).toBe(false);
    expect(hasAnyRole(['admin'], ['x'])).toBe(true);
  });
});
