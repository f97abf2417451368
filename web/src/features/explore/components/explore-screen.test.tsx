import { act, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { mockApi, renderScreen } from '../../../testing/render-with-api.tsx';
import ExploreScreen from './ExploreScreen.tsx';

afterEach(() => vi.unstubAllGlobals());

it('two clicks of 添加面板 before the screen renders again add two panels', async () => {
  mockApi(() => ({ body: [] }));
  renderScreen(<ExploreScreen />, '/energy_monitor/explore');
  const add = await screen.findByTestId('explore-add-panel');
  // One act: no render between the clicks, as with a quick double click.
  act(() => {
    add.click();
    add.click();
  });
  expect(await screen.findByTestId('explore-panel-2')).toBeTruthy();
  expect(screen.getByTestId('explore-panel-1')).toBeTruthy();
});
