import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../../app/providers.tsx';
import { useUnsavedChanges } from './useUnsavedChanges.ts';

vi.setConfig({ testTimeout: 20_000 });

/** An editor stand-in: a change makes it dirty; it switches diagrams in-page like the screen. */
function Editor({ onDiscardAnswer }: { onDiscardAnswer: (answer: boolean) => void }) {
  const [dirty, setDirty] = useState(false);
  const unsaved = useUnsavedChanges(dirty);
  const location = useLocation();
  return (
    <div>
      <span data-testid="where">{location.pathname + location.search}</span>
      <button type="button" onClick={() => setDirty(true)}>
        change
      </button>
      <button type="button" onClick={async () => onDiscardAnswer(await unsaved.confirmDiscard())}>
        monitor
      </button>
      <Link to="/home">home</Link>
      <Link to="/electricDiagram/index?diagram=2">other</Link>
    </div>
  );
}

function renderEditor(onDiscardAnswer: (answer: boolean) => void = () => {}) {
  const router = createMemoryRouter(
    [
      { path: '/electricDiagram/index', element: <Editor onDiscardAnswer={onDiscardAnswer} /> },
      { path: '/home', element: <span data-testid="where">/home</span> },
    ],
    { initialEntries: ['/electricDiagram/index?diagram=1'] },
  );
  render(
    <Providers>
      <App>
        <RouterProvider router={router} />
      </App>
    </Providers>,
  );
  return router;
}

const where = () => screen.getByTestId('where').textContent;
/**
 * The console's confirm (antd), not the browser's: its title, text and buttons in Chinese. `asked`
 * counts the dialogs opened so far (a closed one may linger in jsdom, whose animations never end).
 */
async function dialog(asked: number) {
  await screen.findAllByText('有未保存的修改');
  expect(screen.getAllByText('有未保存的修改，确定放弃吗？').length).toBeGreaterThan(0);
  await waitFor(() => expect(screen.getAllByTestId('diagram-discard-ok')).toHaveLength(asked));
  expect(screen.getAllByTestId('diagram-discard-ok').at(-1)!.textContent?.replace(/\s/g, '')).toBe(
    '放弃修改',
  );
}
const click = (testId: string) => fireEvent.click(screen.getAllByTestId(testId).at(-1)!);

afterEach(() => vi.restoreAllMocks());

describe('the diagram editor’s unsaved-changes guard', () => {
  it('lets everything through while nothing is unsaved', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const answers: boolean[] = [];
    renderEditor((a) => answers.push(a));
    fireEvent.click(screen.getByText('monitor'));
    await waitFor(() => expect(answers).toEqual([true]));
    fireEvent.click(screen.getByText('home'));
    await waitFor(() => expect(where()).toBe('/home'));
    expect(screen.queryByText('有未保存的修改')).toBeNull();
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks in the console’s own dialog before leaving the route, and stays when cancelled', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    renderEditor();
    fireEvent.click(screen.getByText('change'));
    fireEvent.click(screen.getByText('home'));
    await dialog(1);
    expect(where()).toBe('/electricDiagram/index?diagram=1');
    click('diagram-discard-cancel');
    await new Promise((r) => setTimeout(r, 100));
    expect(where()).toBe('/electricDiagram/index?diagram=1');

    // Another diagram's address (Back, a link) asks too; discarding goes on.
    fireEvent.click(screen.getByText('other'));
    await dialog(2);
    click('diagram-discard-ok');
    await waitFor(() => expect(where()).toBe('/electricDiagram/index?diagram=2'));
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks before an in-page action drops the changes and answers what the user chose', async () => {
    const answers: boolean[] = [];
    renderEditor((a) => answers.push(a));
    fireEvent.click(screen.getByText('change'));
    fireEvent.click(screen.getByText('monitor'));
    await dialog(1);
    click('diagram-discard-cancel');
    await waitFor(() => expect(answers).toEqual([false]));
    fireEvent.click(screen.getByText('monitor'));
    await dialog(2);
    click('diagram-discard-ok');
    await waitFor(() => expect(answers).toEqual([false, true]));
  });

  it('keeps the browser’s own prompt on closing or reloading the tab while there are unsaved changes', async () => {
    renderEditor();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      act(() => {
        window.dispatchEvent(event);
      });
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    fireEvent.click(screen.getByText('change'));
    expect(unload()).toBe(true);
  });
});
