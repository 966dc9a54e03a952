// The first turn after a host start must not pay for opening Engram's heavy parts (the embedding
// model, its reference vectors, the word tables): a recall at plugin start loads them in the
// background. Until it is done, recall is lexical (the log says so), and no step waits for Engram
// longer than the plugin's recallWaitMs (100 ms): a recall still running then is delivered with a
// later step.
import type { Engine } from '@engram/engine';
import type { HostLogger } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';

/** What the warm-up recall asks: Chinese and English words, so both tokenizers' tables load. */
const WARM_UP_QUERY = '预热 warm up 记忆召回';

export class WarmUp {
  private state: 'idle' | 'running' | 'done' = 'idle';
  /** Resolves when the warm-up has finished (or failed: then recall simply goes on as it can). */
  done: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { engine(): Engine | null; log: HostLogger }) {}

  /** Starts loading in the background; never throws, never awaited by the host. */
  start(): void {
    const engine = this.deps.engine();
    if (!engine || this.state !== 'idle') return;
    this.state = 'running';
    const started = performance.now();
    this.done = engine.recall(WARM_UP_QUERY).then(
      (result) => {
        this.state = 'done';
        const semantic = result.explain.semantic;
        this.deps.log.info(`warm-up: recall ready in ${Math.round(performance.now() - started)} ms (semantic ${semantic.ran ? 'ready' : `off: ${semantic.skipped ?? 'not configured'}`})`);
      },
      (error: unknown) => {
        this.state = 'done';
        this.deps.log.warn(`warm-up failed (recall goes on as it can): ${errorText(error)}`);
      },
    );
  }

  /** Why recall is lexical right now, or null when the full recall is ready. */
  lexicalReason(): string | null {
    return this.state === 'running' ? 'the embedding model is still loading (plugin start)' : null;
  }
}

/** `work`, or 'late' when it takes longer than `ms` (it goes on; its errors are the caller's to log). */
export async function within<T>(ms: number, work: Promise<T>): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
