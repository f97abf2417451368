/**
 * Group commit, the same for every wing: concurrent write() calls queue their batches, the first
 * one waits `delayMs` for company (or none once `maxSize` is queued), and one commit at a time
 * takes as many queued batches as fit in `maxSize`. A batch's promise settles with its commit.
 */
import { TelemetryWriteError } from './store.ts';

export interface GroupCommitOptions<T> {
  /** How long the first batch of a commit waits for company, ms. */
  delayMs: number;
  /** A commit starts at once when this much is queued, and takes at most this much (unless one batch is larger). */
  maxSize: number;
  /** The size of a batch (points). */
  size: (batch: T) => number;
  /** Stores the batches durably; throws to refuse them all. */
  commit: (batches: readonly T[], size: number) => Promise<void>;
  /** Prefix of the TelemetryWriteError a failed commit rejects its batches with. */
  failure: string;
}

interface Pending<T> {
  batch: T;
  size: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T> {
  private queue: Pending<T>[] = [];
  private queued = 0;
  private timer: NodeJS.Timeout | undefined;
  private committing: Promise<void> | undefined;

  constructor(private readonly options: GroupCommitOptions<T>) {}

  /** Queues a batch; resolves once its commit is durable, rejects when it failed. */
  add(batch: T): Promise<void> {
    const size = this.options.size(batch);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ batch, size, resolve, reject });
      this.queued += size;
      if (this.committing) return;
      if (this.queued >= this.options.maxSize) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.options.delayMs);
    });
  }

  /** Commits everything queued; resolves when nothing is left. */
  async flush(): Promise<void> {
    this.kick();
    while (this.committing) await this.committing;
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.committing || this.queue.length === 0) return;
    this.committing = this.drain().finally(() => {
      this.committing = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  /** Commits what is queued, commit after commit, until the queue is empty. */
  private async drain(): Promise<void> {
    const { maxSize } = this.options;
    while (this.queue.length > 0) {
      const taken: Pending<T>[] = [];
      let n = 0;
      while (this.queue.length > 0 && (n === 0 || n + (this.queue[0]?.size ?? 0) <= maxSize)) {
        const next = this.queue.shift() as Pending<T>;
        taken.push(next);
        n += next.size;
      }
      this.queued -= n;
      try {
        await this.options.commit(
          taken.map((p) => p.batch),
          n,
        );
        for (const p of taken) p.resolve();
      } catch (error) {
        const failure = new TelemetryWriteError(`${this.options.failure}: ${(error as Error).message}`, {
          cause: error,
        });
        for (const p of taken) p.reject(failure);
      }
    }
  }
}
