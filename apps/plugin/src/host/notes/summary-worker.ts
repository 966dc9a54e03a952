// Drains the engine's summary queue in the background: one job at a time, on a timer, never on a
// turn's path. A model that fails or hangs costs one job a rule-based summary (the queue decides
// that); nothing the worker meets stops it except stop(). Stopping aborts the model call in flight,
// and that job goes back to the queue for the next worker.
import { summaryRoute, type AssistRoute, type Complete, type Engine, type SummaryRun } from '@engram/engine';
import type { HostLogger } from '../core/host-types.ts';
import { errorText, silentHostLogger } from '../core/log.ts';

export interface SummaryWorkerDeps {
  /** The open engine, or null (not open / disposed): the worker then does nothing. */
  engine: () => Engine | null;
  /** The host's model service (completeThrough(() => llm)). */
  complete: Complete;
  log?: HostLogger;
  /** Pause between drains; default 5000 ms. */
  intervalMs?: number;
  /**
   * The session's own model, used when the summaries settings name none. While neither gives a
   * route, jobs wait in the queue (a model that appears later still gets to write them).
   */
  route?: () => AssistRoute | null;
  /** Jobs per drain at most, so a long queue is worked through in steps; default 20. */
  batch?: number;
}

export interface SummaryWorker {
  /** Drains now (after a drain in progress); resolves with the number of jobs handled. */
  runNow(): Promise<number>;
  /** Drains soon instead of at the next interval (e.g. right after a write). */
  wake(): void;
  /** Stops the timer, aborts a model call in flight and waits for the drain to end. */
  stop(): Promise<void>;
  readonly stopped: boolean;
}

export const DEFAULT_SUMMARY_INTERVAL_MS = 5_000;
export const DEFAULT_SUMMARY_BATCH = 20;

function report(log: HostLogger, run: SummaryRun): void {
  const where = `${run.docId} ${run.path}`;
  if (run.outcome === 'auto') log.info(`summary written by the model: ${where}`);
  else if (run.outcome === 'rule') log.warn(`summary: rule-based fallback for ${where}: ${run.error ?? ''}`);
  else if (run.outcome === 'failed') log.warn(`summary failed for ${where}: ${run.error ?? ''}`);
  else log.debug(`summary job ${run.outcome}: ${where}`);
}

export function startSummaryWorker(deps: SummaryWorkerDeps): SummaryWorker {
  const log = deps.log ?? silentHostLogger;
  const intervalMs = Math.max(10, deps.intervalMs ?? DEFAULT_SUMMARY_INTERVAL_MS);
  const batch = Math.max(1, deps.batch ?? DEFAULT_SUMMARY_BATCH);
  const abort = new AbortController();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let current: Promise<number> = Promise.resolve(0);
  let waitingSaid = false;

  const drain = async (): Promise<number> => {
    let handled = 0;
    while (!stopped && handled < batch) {
      const engine = deps.engine();
      if (!engine || engine.database.readOnly || !engine.config.summaries.enabled) return handled;
      let route: AssistRoute | null;
      try {
        route = summaryRoute(engine.config.summaries, deps.route?.() ?? null);
      } catch (error) {
        log.warn(`summary worker: no route: ${errorText(error)}`);
        return handled;
      }
      if (!route) {
        if (!waitingSaid) log.debug('summary worker: waiting for a model route (summaries.provider/model, or a session’s model)');
        waitingSaid = true;
        return handled;
      }
      waitingSaid = false;
      let run: SummaryRun | null;
      try {
        run = await engine.summaryQueue().runOnce(deps.complete, { route, signal: abort.signal });
      } catch (error) {
        // A closed engine while stopping is expected; anything else waits for the next interval.
        if (!stopped) log.warn(`summary worker: ${errorText(error)}`);
        return handled;
      }
      if (!run) return handled;
      handled++;
      report(log, run);
    }
    return handled;
  };

  const safeDrain = (): Promise<number> =>
    drain().catch((error: unknown) => {
      if (!stopped) log.warn(`summary worker: ${errorText(error)}`);
      return 0;
    });

  const runNow = (): Promise<number> => {
    current = current.then(safeDrain, safeDrain);
    return current;
  };

  const schedule = (delay = intervalMs): void => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void runNow().then(() => schedule());
    }, delay);
    // The worker must never keep the host process alive on its own.
    timer.unref?.();
  };
  schedule();

  return {
    runNow,
    wake() {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = null;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      abort.abort(new Error('the summary worker stopped'));
      await current;
    },
    get stopped() {
      return stopped;
    },
  };
}
