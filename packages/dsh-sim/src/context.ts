// A plugin's view of the host: a cordis-like Context that owns everything the plugin registers
// (listeners, sections, tools, routes, effects) and disposes it when the plugin unloads.
import type { EventBus, Listener } from './events.ts';
import { createLoggerFactory, type LoggerFactory } from './logger.ts';
import type { LogLine } from './types.ts';

/** A host service seen from one calling context; registrations made through it belong to that context. */
export interface ServiceProvider {
  facade(ctx: Context): unknown;
}

export interface HostCore {
  readonly bus: EventBus;
  service(name: string): ServiceProvider | undefined;
  readonly logs: LogLine[];
  readonly echoLogs: boolean;
  now(): number;
  recordError(where: string, plugin: string, error: unknown): void;
  recordUndeclared(plugin: string, service: string): void;
  track(promise: Promise<unknown>): void;
}

export type ListenOptions = boolean | { prepend?: boolean; global?: boolean };

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

export class Context {
  readonly logger: LoggerFactory;
  private readonly disposers = new Set<() => void>();
  private disposed = false;

  constructor(
    private readonly core: HostCore,
    /** The owning plugin's name; used to attribute errors and logs. */
    readonly name: string,
    private readonly declared: ReadonlySet<string>,
  ) {
    this.logger = createLoggerFactory(name, core.logs, () => core.now(), core.echoLogs);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Ties a disposer to this context; the returned function is idempotent and may be called early. */
  track(dispose: () => void): () => void {
    let done = false;
    const wrapped = () => {
      if (done) return;
      done = true;
      this.disposers.delete(wrapped);
      dispose();
    };
    if (this.disposed) {
      // Registering on a disposed fiber is undone at once, as cordis does.
      wrapped();
      return wrapped;
    }
    this.disposers.add(wrapped);
    return wrapped;
  }

  /** `options` is `{ prepend?, global? }` or a boolean meaning prepend. All listeners here see every session ("global"). */
  on(name: string, listener: Listener, options?: ListenOptions): () => void {
    if (typeof listener !== 'function') throw new TypeError(`ctx.on("${name}") needs a function listener`);
    const prepend = typeof options === 'boolean' ? options : Boolean(options?.prepend);
    return this.track(this.core.bus.add(name, { listener, owner: this.name }, prepend));
  }

  emit(name: string, ...args: unknown[]): void {
    this.core.bus.emit(name, args);
  }

  serial(name: string, ...args: unknown[]): Promise<void> {
    return this.core.bus.serial(name, args);
  }

  parallel(name: string, ...args: unknown[]): Promise<void> {
    return this.core.bus.parallel(name, args);
  }

  bail(name: string, ...args: unknown[]): unknown {
    return this.core.bus.bail(name, args);
  }

  /** Runs `execute` now; whatever dispose function it returns runs when the plugin unloads. */
  effect(execute: () => unknown): () => void {
    const dispose = execute();
    if (isThenable(dispose)) throw new TypeError('ctx.effect() needs a synchronous function returning a disposer');
    return this.track(typeof dispose === 'function' ? (dispose as () => void) : () => {});
  }

  /**
   * Runs `callback` with a child context that may use `deps`, only when every one of them exists.
   * The child's registrations are disposed with this context.
   */
  inject(deps: string[] | Record<string, unknown>, callback: (ctx: Context) => unknown): () => void {
    const names = Array.isArray(deps) ? deps : Object.keys(deps);
    if (names.some((name) => this.core.service(name) === undefined)) return () => {};
    const child = new Context(this.core, this.name, new Set([...this.declared, ...names]));
    const disposeChild = this.track(() => child.dispose());
    try {
      const result = callback(child);
      if (typeof result === 'function') child.track(result as () => void);
      else if (isThenable(result)) {
        this.core.track(Promise.resolve(result).then(undefined, (error) => this.core.recordError('ctx.inject', this.name, error)));
      }
    } catch (error) {
      this.core.recordError('ctx.inject', this.name, error);
      disposeChild();
    }
    return disposeChild;
  }

  /** A service, only if this context declared it (plugin `inject` or `ctx.inject`); otherwise undefined, and recorded. */
  get(name: string): any {
    const provider = this.core.service(name);
    if (!provider) return undefined;
    if (!this.declared.has(name)) {
      this.core.recordUndeclared(this.name, name);
      return undefined;
    }
    return provider.facade(this);
  }

  get systemPrompt(): any {
    return this.get('systemPrompt');
  }

  get tools(): any {
    return this.get('tools');
  }

  get webServer(): any {
    return this.get('webServer');
  }

  get httpServer(): any {
    return this.get('httpServer');
  }

  get llm(): any {
    return this.get('llm');
  }

  /** Disposes registrations newest first; a failing disposer is recorded and the rest still run. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const dispose of [...this.disposers].reverse()) {
      try {
        dispose();
      } catch (error) {
        this.core.recordError('dispose', this.name, error);
      }
    }
  }
}
