// Runs embedding batches through the pacer with retries. A batch that keeps failing is given up
// (degraded: its chunks get no vector, recall for them stays lexical) and the run goes on: an
// index build must never stop because the embeddings endpoint is having a bad minute.
import { backoffMs } from './http-retry.ts';
import { EmbeddingFault, isEmbeddingFault } from './embedding-fault.ts';
import { AbortedError, sleep, type RequestPacer } from './pacer.ts';

export type EmbedFn = (texts: string[], signal: AbortSignal | undefined) => Promise<Float32Array[]>;

export interface BatchResult {
  index: number;
  texts: string[];
  /** Present when the batch succeeded. */
  vectors?: Float32Array[];
  /** Why the batch was given up. */
  error?: string;
  attempts: number;
}

export interface RunBatchesOptions {
  pacer: RequestPacer;
  /** Attempts after the first one, for retryable faults. */
  maxRetries: number;
  signal?: AbortSignal;
  /** A server asking for a longer pause than this degrades the batch instead of stalling the build. */
  maxWaitMs?: number;
  backoffBaseMs?: number;
  random?: () => number;
  /** Called once per batch, in completion order; awaited before that worker takes the next batch. */
  onResult: (result: BatchResult) => Promise<void> | void;
  onRetry?: (info: { index: number; attempt: number; waitMs: number; reason: string }) => void;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Returns false if aborted before every batch was handled. */
export async function runBatches(batches: string[][], embed: EmbedFn, opts: RunBatchesOptions): Promise<boolean> {
  let next = 0;
  const maxWait = opts.maxWaitMs ?? 120_000;
  const workers = Math.max(1, Math.min(batches.length, opts.pacer.concurrency));

  const runOne = async (index: number): Promise<BatchResult> => {
    const texts = batches[index] as string[];
    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw new AbortedError();
      const release = await opts.pacer.acquire(opts.signal);
      let fault: EmbeddingFault;
      try {
        const vectors = await embed(texts, opts.signal);
        return { index, texts, vectors, attempts: attempt + 1 };
      } catch (e) {
        if (opts.signal?.aborted) throw new AbortedError();
        fault = isEmbeddingFault(e) ? e : new EmbeddingFault('network', messageOf(e));
      } finally {
        release();
      }
      if (!fault.retryable || attempt >= opts.maxRetries) {
        const tries = attempt + 1;
        return { index, texts, error: `${fault.message}${tries > 1 ? ` (after ${tries} attempts)` : ''}`, attempts: tries };
      }
      const serverWait = fault.retryAfterMs;
      if (serverWait !== null && serverWait > maxWait) {
        return { index, texts, error: `${fault.message}; server asked to wait ${Math.round(serverWait / 1000)} s, more than ${Math.round(maxWait / 1000)} s`, attempts: attempt + 1 };
      }
      const waitMs = serverWait ?? backoffMs(attempt, { baseMs: opts.backoffBaseMs, random: opts.random });
      if (fault.kind === 'rate-limit') opts.pacer.pauseFor(waitMs);
      opts.onRetry?.({ index, attempt: attempt + 1, waitMs, reason: fault.message });
      await sleep(waitMs, opts.signal);
    }
  };

  const worker = async (): Promise<void> => {
    while (next < batches.length) {
      const index = next++;
      const result = await runOne(index);
      await opts.onResult(result);
    }
  };

  try {
    await Promise.all(Array.from({ length: workers }, worker));
    return true;
  } catch (e) {
    if (e instanceof AbortedError || opts.signal?.aborted) return false;
    throw e;
  }
}
