/**
 * The login against a catalog request still in flight: the explorer's list of databases tries
 * twice (databasesQueryOptions, retry 1), and its second try can leave before the login and be
 * answered 401 after it. The e2e auth journey failed so on a loaded machine (the explorer never
 * showed after the login). Here the order is forced: the request sent before the login is held
 * until the login has succeeded, then answered 401 as the instance answered it.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { connectionHealth } from '../api/connection-health';
import { json } from '../test/fixtures';
import { Explorer } from '../features/explorer/Explorer';
import { LoginForm } from '../features/connection/LoginForm';
import { createQueryClient } from './providers';

const databases = {
  type: 'table',
  column_names: ['Database', 'TYPE', 'ENGINE'],
  data: [['example_db', 'data', 'postgres']],
  context: { db: 'mindsdb' },
};

interface Held {
  release(): void;
}

/**
 * The instance behind a session cookie: the SQL endpoint answers 401 until a login succeeds. Of
 * the SQL requests sent before the login, the first is answered at once and the later ones are
 * held (answered 401 when released); a held request honours its abort signal.
 */
function instance() {
  let loggedIn = false;
  let unauthorised = 0;
  const held: Held[] = [];
  const sqlSent: boolean[] = []; // per SQL request: sent with the session
  const fetch = vi.fn(async (path: string, init?: RequestInit) => {
    if (path === '/api/login') {
      loggedIn = true;
      return json(200, { ok: true });
    }
    sqlSent.push(loggedIn);
    if (loggedIn) return json(200, databases);
    unauthorised += 1;
    if (unauthorised === 1) return json(401, { error_message: 'Not authenticated' });
    return new Promise<Response>((resolve, reject) => {
      const signal = init?.signal;
      signal?.addEventListener('abort', () =>
        reject(new DOMException('The operation was aborted.', 'AbortError')),
      );
      held.push({ release: () => resolve(json(401, { error_message: 'Not authenticated' })) });
    });
  });
  return { fetch, held, sqlSent };
}

beforeEach(() => connectionHealth.set({ seq: 0, last: null }));
afterEach(() => vi.unstubAllGlobals());

it('the explorer lists the databases after a login that lands while its unauthorised retry is in flight', async () => {
  const server = instance();
  vi.stubGlobal('fetch', server.fetch);
  // The retry goes at once (the app waits 1 s): the order is forced by the held answer, not a delay.
  const qc = createQueryClient();
  qc.setDefaultOptions({ queries: { ...qc.getDefaultOptions().queries, retryDelay: 0 } });
  const invalidate = vi.spyOn(qc, 'invalidateQueries');
  render(
    <QueryClientProvider client={qc}>
      <Explorer onInsert={() => {}} onQuery={() => {}} />
      <LoginForm />
    </QueryClientProvider>,
  );

  // The first try was refused; the retry is out, without a session.
  await waitFor(() => expect(server.held).toHaveLength(1));
  expect(server.sqlSent).toEqual([false, false]);

  const form = screen.getByRole('form', { name: 'Log in' });
  fireEvent.change(within(form).getByLabelText('Username'), { target: { value: 'e2e' } });
  fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'pw' } });
  fireEvent.click(within(form).getByRole('button', { name: 'Log in' }));
  await waitFor(() => expect(invalidate).toHaveBeenCalled());

  // The instance answers the request that left before the login: 401.
  for (const h of server.held) h.release();

  const tree = screen.getByRole('tree', { name: 'Databases' });
  await waitFor(() => expect(within(tree).queryByText('Loading databases…')).toBeNull());
  expect(within(tree).queryByRole('alert')).toBeNull();
  expect(within(tree).getByRole('treeitem', { name: /example_db/ })).toBeInTheDocument();
  // The list shown came from a request sent with the session.
  expect(server.sqlSent.at(-1)).toBe(true);
});
