// The simulated DSH host: services, plugin loading, sessions and the record of everything that went
// wrong (errors swallowed by the host, inbox touches, undeclared service reads, vetoed waterfalls).
import { Context, type HostCore, type ServiceProvider } from './context.ts';
import { EventBus } from './events.ts';
import { SimSession, type InboxMode, type SessionEventsApi, type TurnOptions } from './session.ts';
import { HttpRoutes } from './services/http.ts';
import { LlmService, type LlmResponder } from './services/llm.ts';
import { SystemPromptService, type AssembleContext } from './services/system-prompt.ts';
import { ToolsService, type PreToolDecision } from './services/tools.ts';
import { runUserTurn, type AssembleAt } from './turn.ts';
import { installBuiltins } from './builtins.ts';
import type { EventEnvelope, HostError, InboxViolation, LogLine, RecordedRequest, ScriptEntry } from './types.ts';

export interface HostOptions {
  /** Which session event API exists: rc.8's `events` getter, newer `snapshotEvents()`, or both. */
  sessionEvents?: SessionEventsApi;
  /** Which HTTP route service exists: rc.8's `webServer`, newer `httpServer`, both, or none. */
  httpService?: 'webServer' | 'httpServer' | 'both' | 'none';
  /** 'sentinel' (default) refuses every inbox touch; 'working' is a real queue, for mutation tests. */
  inbox?: InboxMode;
  llm?: boolean;
  tools?: boolean;
  /**
   * When the assemble waterfall runs within a step. The contract (rc.8) runs it before
   * agent/pre-step; newer hosts' lifecycle docs run it after the step's user messages are logged.
   */
  assembleAt?: AssembleAt;
  /** The host's own identity section (order -1000). */
  hostIdentity?: boolean;
  /** The host's own working-directory context, so snapshots also carry entries that are not the plugin's. */
  hostContexts?: boolean;
  /** The built-in `todo_write` tool that logs `todo/write`. */
  builtinTools?: boolean;
  provider?: string;
  model?: string;
  /** What the "model" says when a turn needs more steps than the script has. */
  fallbackReply?: string;
  maxStepsPerTurn?: number;
  /** A failing turn rejects `userTurn` (after logging turn/end); otherwise it resolves with status 'error'. */
  rejectOnTurnError?: boolean;
  llmResponder?: LlmResponder;
  now?: () => number;
  /** Print plugin logs to stderr as well. */
  echoLogs?: boolean;
}

/** Presets for the two host generations a plugin must survive. */
export const HOST_VARIANTS = {
  rc8: { sessionEvents: 'events', httpService: 'webServer' },
  current: { sessionEvents: 'snapshot', httpService: 'httpServer' },
} as const satisfies Record<string, HostOptions>;

export interface PluginModule {
  name: string;
  inject?: string[] | { required?: string[]; optional?: string[] };
  Config?: unknown;
  apply(ctx: Context, config: any): unknown;
}

export interface SessionInit {
  id?: string;
  cwd?: string;
  origin?: string;
  parentSession?: string;
}

function requiredAndOptional(inject: PluginModule['inject']): { required: string[]; optional: string[] } {
  if (inject === undefined) return { required: [], optional: [] };
  if (Array.isArray(inject)) return { required: inject, optional: [] };
  return { required: inject.required ?? [], optional: inject.optional ?? [] };
}

function resolveConfig(plugin: PluginModule, config: unknown): unknown {
  const schema = plugin.Config as { parse?: (v: unknown) => unknown } | ((v: unknown) => unknown) | undefined;
  if (schema && typeof (schema as { parse?: unknown }).parse === 'function') return (schema as { parse: (v: unknown) => unknown }).parse(config);
  if (typeof schema === 'function') return (schema as (v: unknown) => unknown)(config);
  return config;
}

export class SimHost {
  /** Errors the host caught and swallowed (listener throws, failed turns, route handlers...). Should stay empty. */
  readonly errors: HostError[] = [];
  readonly inboxViolations: InboxViolation[] = [];
  readonly logs: LogLine[] = [];
  /** Waterfall listeners that returned without calling next (a veto of everything after them). */
  readonly vetoes: { event: string; plugin: string }[] = [];
  /** Services a plugin read without declaring them in `inject` (it got undefined). */
  readonly undeclaredServiceAccess: { plugin: string; service: string }[] = [];
  /** Tools whose execute threw (the model got an error result). */
  readonly toolFailures: { tool: string; plugin: string; error: unknown }[] = [];
  /** Every request sent to the model, across sessions. */
  readonly requests: RecordedRequest[] = [];
  readonly sessions: SimSession[] = [];

  readonly bus: EventBus;
  readonly systemPrompt: SystemPromptService;
  readonly tools: ToolsService | undefined;
  readonly http: HttpRoutes | undefined;
  readonly llm: LlmService | undefined;
  /** The host's own context (owns its built-in section, context and tools). */
  readonly root: Context;

  private readonly options: Required<Omit<HostOptions, 'llmResponder' | 'now'>> & { now: () => number };
  private readonly services = new Map<string, ServiceProvider>();
  private readonly plugins = new Map<string, Context>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly counters = new Map<string, number>();

  constructor(options: HostOptions = {}) {
    this.options = {
      sessionEvents: options.sessionEvents ?? HOST_VARIANTS.rc8.sessionEvents,
      httpService: options.httpService ?? HOST_VARIANTS.rc8.httpService,
      inbox: options.inbox ?? 'sentinel',
      llm: options.llm ?? true,
      tools: options.tools ?? true,
      assembleAt: options.assembleAt ?? 'before-pre-step',
      hostIdentity: options.hostIdentity ?? true,
      hostContexts: options.hostContexts ?? true,
      builtinTools: options.builtinTools ?? true,
      provider: options.provider ?? 'deepseek',
      model: options.model ?? 'deepseek-chat',
      fallbackReply: options.fallbackReply ?? 'ok',
      maxStepsPerTurn: options.maxStepsPerTurn ?? 24,
      rejectOnTurnError: options.rejectOnTurnError ?? true,
      echoLogs: options.echoLogs ?? false,
      now: options.now ?? (() => Date.now()),
    };
    this.bus = new EventBus({
      error: (where, owner, error) => this.recordError(where, owner, error),
      veto: (event, plugin) => this.vetoes.push({ event, plugin }),
      track: (promise) => this.track(promise),
    });
    this.systemPrompt = new SystemPromptService({
      bus: this.bus,
      toolSchemas: () => this.tools?.schemas() ?? [],
      resolveContext: (arg) => this.assembleContextOf(arg),
    });
    this.services.set('systemPrompt', this.systemPrompt);
    this.tools = this.options.tools
      ? new ToolsService(
          (tool, plugin, error) => this.toolFailures.push({ tool, plugin, error }),
          (exec) => this.bus.waterfall('tools/pre-execute', [exec], () => ({ kind: 'allow' })) as Promise<PreToolDecision>,
        )
      : undefined;
    if (this.tools) this.services.set('tools', this.tools);
    const http = this.options.httpService === 'none' ? undefined : new HttpRoutes((where, owner, error) => this.recordError(where, owner, error));
    this.http = http;
    if (http && this.options.httpService !== 'httpServer') this.services.set('webServer', http);
    if (http && this.options.httpService !== 'webServer') this.services.set('httpServer', http);
    this.llm = this.options.llm ? new LlmService() : undefined;
    if (this.llm) {
      if (options.llmResponder) this.llm.responder = options.llmResponder;
      this.services.set('llm', this.llm);
    }
    this.root = new Context(this.core(), '<host>', new Set(this.services.keys()));
    installBuiltins({
      root: this.root,
      systemPrompt: this.systemPrompt,
      toolsService: this.tools,
      identity: this.options.hostIdentity,
      contexts: this.options.hostContexts,
      tools: this.options.builtinTools,
    });
  }

  /** Names of the services this host offers. */
  serviceNames(): string[] {
    return [...this.services.keys()];
  }

  setLlmResponder(responder: LlmResponder): void {
    if (!this.llm) throw new Error('this host has no llm service');
    this.llm.responder = responder;
  }

  /** Applies a plugin like the host: required services must exist, registrations belong to the plugin. */
  async load(plugin: PluginModule, config: unknown = {}): Promise<{ ctx: Context; dispose: () => void }> {
    if (typeof plugin?.name !== 'string' || plugin.name === '') throw new TypeError('a plugin module exports a non-empty `name`');
    if (typeof plugin.apply !== 'function') throw new TypeError(`plugin "${plugin.name}" exports no apply(ctx, config)`);
    if (this.plugins.has(plugin.name)) throw new Error(`plugin "${plugin.name}" is already loaded`);
    const { required, optional } = requiredAndOptional(plugin.inject);
    const missing = required.filter((name) => !this.services.has(name));
    if (missing.length > 0) {
      throw new Error(`cannot load plugin "${plugin.name}": required service ${missing.map((m) => `"${m}"`).join(', ')} not available on this host (it offers ${this.serviceNames().join(', ')})`);
    }
    const ctx = new Context(this.core(), plugin.name, new Set([...required, ...optional]));
    this.plugins.set(plugin.name, ctx);
    try {
      await plugin.apply(ctx, resolveConfig(plugin, config));
    } catch (error) {
      this.plugins.delete(plugin.name);
      ctx.dispose();
      this.recordError(`load:${plugin.name}`, plugin.name, error);
      throw error;
    }
    return { ctx, dispose: () => this.unload(plugin.name) };
  }

  unload(name: string): void {
    const ctx = this.plugins.get(name);
    if (!ctx) throw new Error(`plugin "${name}" is not loaded`);
    this.plugins.delete(name);
    ctx.dispose();
  }

  loadedPlugins(): string[] {
    return [...this.plugins.keys()];
  }

  createSession(init: SessionInit = {}): SimSession {
    const id = init.id ?? this.nextId('session');
    if (this.sessions.some((s) => s.id === id)) throw new Error(`session "${id}" already exists`);
    const header = {
      id,
      cwd: init.cwd ?? '/workspace/project',
      ...(init.origin !== undefined ? { origin: init.origin } : {}),
      ...(init.parentSession !== undefined ? { parentSession: init.parentSession } : {}),
    };
    const session = new SimSession(
      {
        bus: this.bus,
        sessionEvents: this.options.sessionEvents,
        inbox: this.options.inbox,
        inboxViolations: this.inboxViolations,
        provider: this.options.provider,
        model: this.options.model,
        now: this.options.now,
        nextId: (prefix) => this.nextId(prefix),
        runTurn: (s, text, script, opts) => this.runTurn(s, text, script, opts),
      },
      header,
    );
    this.sessions.push(session);
    return session;
  }

  /**
   * A session of an earlier host run, as this host finds it on disk at start: same header, its
   * recorded events loaded (SimSession.restore). Plugins loaded here have seen none of it.
   */
  resumeSession(previous: { header: SessionInit & { id: string }; recordedEvents(): readonly EventEnvelope[] }): SimSession {
    const events = previous.recordedEvents();
    // A real host's ids are UUIDs; this one counts, so it counts on past the ids it finds.
    for (const id of [previous.header.id, ...events.flatMap((e) => [e.data?.id, e.data?.callId, e.data?.compactionId])]) this.countPast(id);
    const session = this.createSession({ ...previous.header });
    session.restore(events);
    return session;
  }

  private countPast(id: unknown): void {
    const m = typeof id === 'string' ? /^(.+)-(\d+)$/.exec(id) : null;
    if (m) this.counters.set(m[1]!, Math.max(this.counters.get(m[1]!) ?? 0, Number(m[2])));
  }

  async listen(): Promise<string> {
    if (!this.http) throw new Error('this host has no HTTP service (httpService: "none")');
    return this.http.listen();
  }

  get baseUrl(): string {
    if (!this.http) throw new Error('this host has no HTTP service (httpService: "none")');
    return this.http.baseUrl;
  }

  /** Waits until fire-and-forget listeners (session/event and friends) have finished. */
  async settle(): Promise<void> {
    for (let round = 0; round < 100; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.pending.size === 0) return;
      await Promise.allSettled([...this.pending]);
    }
    throw new Error('host.settle(): listeners keep scheduling work');
  }

  /** Throws when the host had to swallow an error, a plugin touched the inbox, or read an undeclared service. */
  assertClean(): void {
    const problems: string[] = [];
    for (const e of this.errors) problems.push(`error in ${e.where}${e.plugin ? ` (${e.plugin})` : ''}: ${(e.error as Error)?.stack ?? String(e.error)}`);
    for (const v of this.inboxViolations) problems.push(`agent.inbox.${v.member} ${v.op} in session ${v.sessionId}`);
    for (const u of this.undeclaredServiceAccess) problems.push(`plugin "${u.plugin}" read service "${u.service}" without declaring it in inject`);
    if (problems.length > 0) throw new Error(`host is not clean:\n- ${problems.join('\n- ')}`);
  }

  async close(): Promise<void> {
    for (const name of [...this.plugins.keys()].reverse()) this.unload(name);
    await this.settle().catch(() => undefined);
    await this.http?.close();
  }

  recordError(where: string, plugin: string, error: unknown): void {
    this.errors.push({ where, plugin, error });
  }

  nextId(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}-${n}`;
  }

  private track(promise: Promise<unknown>): void {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }

  private core(): HostCore {
    return {
      bus: this.bus,
      service: (name) => this.services.get(name),
      logs: this.logs,
      echoLogs: this.options.echoLogs,
      now: this.options.now,
      recordError: (where, plugin, error) => this.recordError(where, plugin, error),
      recordUndeclared: (plugin, service) => this.undeclaredServiceAccess.push({ plugin, service }),
      track: (promise) => this.track(promise),
    };
  }

  private assembleContextOf(arg: unknown): AssembleContext {
    if (arg instanceof SimSession) return { agent: arg.agent };
    if (arg !== null && typeof arg === 'object') return arg as AssembleContext;
    return {};
  }

  private runTurn(session: SimSession, text: string, script: ScriptEntry[], options: TurnOptions) {
    return runUserTurn(
      {
        bus: this.bus,
        systemPrompt: this.systemPrompt,
        tools: this.tools,
        provider: this.options.provider,
        model: this.options.model,
        assembleAt: this.options.assembleAt,
        fallbackReply: this.options.fallbackReply,
        maxStepsPerTurn: this.options.maxStepsPerTurn,
        rejectOnTurnError: this.options.rejectOnTurnError,
        hostRequests: this.requests,
        nextId: (prefix) => this.nextId(prefix),
        recordError: (where, plugin, error) => this.recordError(where, plugin, error),
      },
      session,
      text,
      script,
      options,
    );
  }
}

export function createHost(options: HostOptions = {}): SimHost {
  return new SimHost(options);
}
