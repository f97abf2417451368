import { demoHistory } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import { keys } from './keys.ts';

/** While the demo plant's history is being written the console asks this often. */
const DEMO_HISTORY_POLL_MS = 5_000;

/**
 * The demo plant's background history (GET /api/demo/history): polled only while it runs; a plant
 * with none (or done) is asked once a session.
 */
export const useDemoHistory = () =>
  useQuery({
    queryKey: keys.demoHistory(),
    queryFn: () => call(demoHistory, { silent: true }),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? DEMO_HISTORY_POLL_MS : false),
    staleTime: Number.POSITIVE_INFINITY,
  });
