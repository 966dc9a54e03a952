// "Install the model" from the console: the engine's model install (npm registry by default, or a
// folder / base URL the person names) run as a job the page polls for its phase and bytes, then the
// ONNX runtime when the product was installed without it, then the embedding provider switched to the
// model (`auto` picks it up once it is installed) and the existing chunks embedded. One job at a time.
import {
  installedModel,
  installModel,
  installRuntime,
  locateRuntime,
  DEFAULT_MODEL,
  ModelInstallError,
  type Engine,
  type InstallProgress,
  type InstallReport,
} from '@engram/engine';

export type ModelJobPhase = InstallProgress['phase'] | 'switch' | 'embed' | 'queued';
/** Why a job failed: the install's own codes, or the step after it. */
export type ModelJobErrorCode = 'source' | 'integrity' | 'io' | 'aborted' | 'runtime' | 'switch' | 'busy' | 'unknown';

export interface ModelJob {
  id: number;
  state: 'running' | 'done' | 'failed';
  phase: ModelJobPhase;
  /** Every phase the job has been through, in order. */
  phases: ModelJobPhase[];
  /** Bytes while downloading from npm or a URL; files for a folder, verify and write; chunks while embedding. */
  done: number;
  total: number;
  /** 'npm' (the default), a folder or a base URL. */
  source: string;
  startedAt: string;
  finishedAt: string | null;
  error: { code: ModelJobErrorCode; message: string } | null;
  /** Set when done. */
  result: { dir: string; alreadyInstalled: boolean; bytes: number; provider: string; semantic: string; vectors: number } | null;
}

export interface ModelStatus {
  model: string;
  installed: boolean;
  dir: string | null;
  runtime: string;
  /** The configured embedding provider (auto uses the model once installed). */
  provider: string;
  /** What an install costs, for the card before it starts: the download from the registry and the model's files on disk. */
  sizes: { download: number; disk: number };
  job: ModelJob | null;
}

export interface ModelJobDeps {
  install: typeof installModel;
  installRuntime: typeof installRuntime;
  runtimeMissing: (dataDir: string) => boolean;
}

const defaultDeps: ModelJobDeps = {
  install: installModel,
  installRuntime,
  runtimeMissing: (dataDir) => locateRuntime(dataDir).where === 'missing',
};

class StepError extends Error {
  constructor(
    readonly code: ModelJobErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class ModelJobs {
  private job: ModelJob | null = null;
  private nextId = 1;

  constructor(
    private readonly engine: Engine,
    private readonly deps: ModelJobDeps = defaultDeps,
  ) {}

  private get dataDir(): string {
    return this.engine.config.dataDir;
  }

  status(): ModelStatus {
    const found = installedModel(this.dataDir);
    return {
      model: DEFAULT_MODEL.id,
      installed: found !== null,
      dir: found?.dir ?? null,
      runtime: locateRuntime(this.dataDir).where,
      provider: this.engine.config.embedding.provider,
      sizes: { download: DEFAULT_MODEL.npm.bytes ?? 0, disk: DEFAULT_MODEL.files.reduce((n, f) => n + f.bytes, 0) },
      job: this.job && { ...this.job, phases: [...this.job.phases] },
    };
  }

  /** Starts a job (or answers the running one); `done` resolves when it has finished either way. */
  start(opts: { from?: string; force?: boolean } = {}): { job: ModelJob; done: Promise<ModelJob> } {
    if (this.job?.state === 'running') return { job: { ...this.job }, done: Promise.resolve(this.job) };
    const from = opts.from?.trim() ?? '';
    const job: ModelJob = {
      id: this.nextId++,
      state: 'running',
      phase: 'queued',
      phases: ['queued'],
      done: 0,
      total: 0,
      source: from || 'npm',
      startedAt: new Date().toISOString(),
      finishedAt: null,
      error: null,
      result: null,
    };
    this.job = job;
    const done = this.run(job, from, Boolean(opts.force)).then(
      (result) => {
        this.progress(job, 'done', 1, 1);
        return Object.assign(job, { state: 'done', result, finishedAt: new Date().toISOString() });
      },
      (e: unknown) => {
        const code: ModelJobErrorCode = e instanceof ModelInstallError ? e.code : e instanceof StepError ? e.code : 'unknown';
        return Object.assign(job, { state: 'failed', error: { code, message: messageOf(e) }, finishedAt: new Date().toISOString() });
      },
    );
    return { job: { ...job }, done };
  }

  private progress(job: ModelJob, phase: ModelJobPhase, done: number, total: number): void {
    if (job.phase !== phase) job.phases.push(phase);
    job.phase = phase;
    job.done = done;
    job.total = total;
  }

  private async run(job: ModelJob, from: string, force: boolean): Promise<NonNullable<ModelJob['result']>> {
    const dataDir = this.dataDir;
    const report: InstallReport = await this.deps.install({
      dataDir,
      ...(from ? { from } : {}),
      force,
      onProgress: (p) => {
        if (p.phase !== 'done') this.progress(job, p.phase, p.done, p.total);
      },
    });
    if (this.deps.runtimeMissing(dataDir)) {
      this.progress(job, 'runtime', 0, 1);
      try {
        await this.deps.installRuntime(dataDir);
      } catch (e) {
        throw new StepError('runtime', messageOf(e));
      }
    }
    this.progress(job, 'switch', 0, 1);
    try {
      await this.switchProvider();
    } catch (e) {
      throw new StepError('switch', messageOf(e));
    }
    // Existing chunks have no vectors yet: an incremental pass embeds what is missing.
    this.progress(job, 'embed', 0, 0);
    await this.engine.index({
      full: false,
      onProgress: (p) => {
        if (p.phase === 'embed') this.progress(job, 'embed', p.done, p.total);
      },
    });
    const status = await this.engine.status();
    return {
      dir: report.dir,
      alreadyInstalled: report.alreadyInstalled,
      bytes: report.bytes,
      provider: status.semantic.provider,
      semantic: status.semantic.state,
      vectors: status.vectors,
    };
  }

  /**
   * `none` becomes `auto` (which now finds the model); `auto` re-opens the semantic channel so it finds
   * it. An explicit provider (openai, local with its own folder) is the person's choice and stays.
   */
  private async switchProvider(): Promise<void> {
    const provider = this.engine.config.embedding.provider;
    if (provider === 'none') {
      const saved = await this.engine.saveSettings({ embedding: { provider: 'auto' } }, { confirm: 'save-only' });
      if (!saved.ok) throw new Error(saved.reasons.join('; '));
      return;
    }
    if (provider !== 'auto') return;
    // The engine re-opens its channel only when the embedding settings change; `auto` resolves the
    // model folder when the channel opens, so open it again. (Not public on Engine yet.)
    const reopen = (this.engine as unknown as Record<string, unknown>).reloadSemantic ?? (this.engine as unknown as Record<string, unknown>).openSemantic;
    if (typeof reopen !== 'function') throw new Error('this engine cannot re-open its semantic channel');
    await (reopen as () => Promise<void>).call(this.engine);
  }
}
