import { type Parsed, type ParseJob, parseBody } from './parse.ts';

/** Runs in ingest's parse pool (parse-pool.ts): a body parsed and checked off the main thread. */
export default function run(job: ParseJob): Parsed {
  return parseBody(job);
}
