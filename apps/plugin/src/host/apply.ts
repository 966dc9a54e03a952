// The host half: opens the engine and registers every channel once, statically. Which channel
// speaks is decided on every turn from engine.config, so switching a mode in the console applies
// to the next step without a restart. No failure inside the plugin reaches the conversation: each
// hook catches, logs, and hands back the host's value unchanged.
import { BUILTIN_DIARY_GUIDELINE, CompactionMemory, resolveDshHome, startEngine, WorkspaceRegistry, type Engine, type EngramConfig, type GuardPolicy } from '@engram/engine';
import { CompactionChannel, completeThrough, createCompactionRoutes, createCompactionTools, listenForCompactions, mainRouteOf, type LlmService } from './compaction/index.ts';
import { errorText, escapePromptVariables, loggerOf, renderNotice, renderResident, RotatingLog, splitPluginConfig, teeLogger } from './core/index.ts';
import type { AssembleContext, HostContext, HostLogger, HostSession, PreStepDecision, PreStepPayload, PromptAssembly, ToolDefinition, UserMessage } from './core/index.ts';
import { registerCrossSessionTools, registerNotebookSection } from './crosssession/index.ts';
import { createSummaryTryRoutes, listenForNoteBlocks, NoteSink, startSummaryWorker } from './notes/index.ts';
import { RECALL_CONTEXT_NAME, RecallChannel, WarmUp, within } from './recall/index.ts';
import { GUIDELINE_ORDER, GUIDELINE_SECTION_NAME, guidelineSection, RESIDENT_SECTION_NAME, ResidentChannel } from './resident/index.ts';
import { ConsoleLink, consoleEnv, createLightViewRoutes, createRoutes, describeStatus, ensureConsoleToken } from './routes/index.ts';
import { isSubagent, lastPersonMessage, pluginMessage, sessionEvents, sessionToolSpecs } from './sessions/index.ts';
import { rawLogGuard } from './sessions/raw-log-guard.ts';
import { createLeanTools, createTools, modelTextFor, profileOf, sectionsOf, toHostTool, workspaceTextFor, type ToolDeps } from './tools/index.ts';
import { ModelAutoInstall, type ModelInstallDeps } from './model/index.ts';
import { MemoryMirrors, WORKSPACE_SECTION_NAME, WORKSPACE_SECTION_ORDER, WorkspaceInjection, WorkspaceScopes } from './workspace/index.ts';

export const PLUGIN_NAME = 'engram';
export const PLUGIN_VERSION = '0.1.0';
/** Required services; tools and HTTP routes are optional (ctx.inject), so the plugin loads without them. */
export const PLUGIN_INJECT = ['systemPrompt'];

type Env = Record<string, string | undefined>;
/** How long a tool call made while the index is still opening waits for it (a large store: seconds). */
const TOOL_OPEN_WAIT_MS = 30_000;
type EnterDecision = Extract<PreStepDecision, { kind: 'enter' }>;

/** How this step's extra messages reach the host: appended to the decision, never the inbox. */
export type Deliver = (payload: PreStepPayload, decision: EnterDecision, messages: UserMessage[]) => PreStepDecision;

export const appendToDecision: Deliver = (_payload, decision, messages) =>
  messages.length === 0 ? decision : { ...decision, messages: [...decision.messages, ...messages] };

export interface HostPluginDeps {
  env?: Env;
  /** Called once the engine is open: tests change settings through it as the console would. */
  onEngine?(engine: Engine): void;
  /** Called at load with the engine's open, which goes on in the background (null: it failed). */
  onOpening?(ready: Promise<Engine | null>): void;
  /** Replaceable only so a mutation test can prove the inbox assertions catch a wrong delivery. */
  deliver?: Deliver;
  /** The model install's steps (tests give a source that fails, or one that waits). */
  modelInstall?: Partial<ModelInstallDeps>;
  /** Called with the background model install once it is decided (tests wait on its `done`). */
  onModelInstall?(install: ModelAutoInstall): void;
  /** Engine open options a test replaces (a semantic channel that loads slowly, say). */
  engineOptions?: Pick<Parameters<typeof startEngine>[0] & object, 'semanticFactory'>;
  /** Called with the start-up warm-up (tests wait on its `done`). */
  onWarmUp?(warmUp: WarmUp): void;
  /** The Memory.md keeper (tests wait for its background refreshes). */
  onMirrors?(mirrors: MemoryMirrors): void;
}

export interface HostPlugin {
  name: string;
  inject: string[];
  apply(ctx: HostContext, config: unknown): Promise<void>;
}

export function createHostPlugin(deps: HostPluginDeps = {}): HostPlugin {
  return { name: PLUGIN_NAME, inject: PLUGIN_INJECT, apply: (ctx, config) => applyEngram(ctx, config, deps) };
}

function engineLogger(log: HostLogger) {
  return (level: 'debug' | 'info' | 'warn' | 'error', message: string, data?: Record<string, unknown>) => {
    const line = data && Object.keys(data).length > 0 ? `${message} ${JSON.stringify(data)}` : message;
    log[level](`engine: ${line}`);
  };
}

/** Runs one registration through ctx.effect where the host has it, so it is undone with the plugin. */
function effect(ctx: HostContext, register: () => unknown): void {
  if (typeof ctx.effect === 'function') ctx.effect(() => register());
  else register();
}

export async function applyEngram(ctx: HostContext, rawConfig: unknown, deps: HostPluginDeps = {}): Promise<void> {
  // The host's web profile keeps plugin logs in memory only: they also go to <dataDir>/logs/.
  const logFile = new RotatingLog();
  const log = teeLogger(loggerOf(ctx, PLUGIN_NAME), logFile);
  const env = deps.env ?? process.env;
  const deliver = deps.deliver ?? appendToDecision;
  const { engineOptions, plugin } = splitPluginConfig(rawConfig, env);

  // The settings are read at load (fast); the index opens in the background, so a host start never
  // waits for it. Until it is open every hook answers as a plugin without memory would, and a turn
  // waits for it no longer than recallWaitMs.
  let engine: Engine | null = null;
  let engineError: string | null = null;
  let disposed = false;
  let initial: EngramConfig | null = null;
  let opening: Promise<Engine> | null = null;
  try {
    // The embedding model loads and runs in a child process: the host's event loop never waits on the
    // ONNX runtime (its load is synchronous), and after 10 idle minutes the process ends and gives all
    // its memory back (a worker thread keeps the runtime and the allocator's heaps: docs/benchmarks.md).
    // It loads on the first search (the warm-up's), not in the open: the index is open, and recall
    // lexical, while the model comes up (bench-first-turn: the first turn then carries its memory).
    const model = { load: 'on-demand', thread: 'worker', isolation: 'process' } as const;
    const started = await startEngine({ options: engineOptions, env, log: engineLogger(log), syncOnOpen: plugin.syncOnOpen, watch: plugin.watch, model, ...deps.engineOptions });
    initial = started.config;
    opening = started.ready;
    const logProblem = logFile.open(initial.dataDir);
    if (logProblem) log.warn(`plugin log file off: ${logProblem}`);
  } catch (error) {
    engineError = errorText(error);
    // The plugin stays loaded and inert: the conversation goes on without memory.
    log.error(`engine failed to open, memory is off: ${engineError}`);
  }
  const getEngine = (): Engine | null => (disposed ? null : engine);
  /** The background open is still under way (not done, not failed, the plugin not unloaded). */
  const stillOpening = (): boolean => engine === null && !disposed && engineError === null && opening !== null;
  /** Settles when the background open has (set at the end of apply, once every channel exists). */
  let ready: Promise<Engine | null> = Promise.resolve(null);
  // The hooks of one step (its assembly's two, its pre-step) share one wait for the open: the first
  // starts a window of recallWaitMs, and a hook within it (or the second after it) waits only for
  // what is left, so a step waits recallWaitMs in all, not once per hook.
  let openWindowEnd = -Infinity;
  let openWindowSaid = false;
  /** The open engine, waiting for the background open at most `ms` of this step's budget. */
  const engineWithin = async (what: string, ms: number): Promise<Engine | null> => {
    if (!stillOpening()) return getEngine();
    const now = performance.now();
    if (now > openWindowEnd + 1_000) {
      openWindowEnd = now + Math.max(0, ms);
      openWindowSaid = false;
    }
    if ((await within(Math.max(0, Math.min(ms, openWindowEnd - now)), ready)) === 'late') {
      // Said once per window: the step's other hooks went without memory for the same reason.
      if (!openWindowSaid) log.info(`${what}: the memory index is still opening after ${plugin.recallWaitMs} ms; this step goes on without memory`);
      openWindowSaid = true;
      return null;
    }
    return getEngine();
  };
  // Settings saved by the console process reach this engine when it reloads them; an engine that can
  // (refreshConfig) is asked once per step, before the step reads its config.
  const refreshConfig = async (current: Engine): Promise<void> => {
    const refresh = (current as unknown as { refreshConfig?: () => Promise<unknown> }).refreshConfig;
    if (typeof refresh !== 'function') return;
    try {
      await refresh.call(current);
    } catch (error) {
      log.warn(`config refresh failed, keeping the current settings: ${errorText(error)}`);
    }
  };
  // The tool/prompt profile is read once: the tools offered and the sections that describe them change together, at a reload.
  // An engine that failed to open still offers the tools the config asked for (they answer not-ready).
  const profile = profileOf(initial ?? (engineOptions as Partial<EngramConfig>));
  const sections = sectionsOf(profile);

  const consoleUrl = plugin.consoleUrl || `http://${initial?.console.host ?? '127.0.0.1'}:${initial?.console.port ?? 3000}`;
  const consoleLink = new ConsoleLink({
    url: consoleUrl,
    token: () => {
      if (plugin.consoleToken) return plugin.consoleToken;
      const dataDir = (getEngine()?.config ?? initial)?.dataDir;
      if (!dataDir) throw new Error('no data directory: the engine did not open');
      return ensureConsoleToken(dataDir);
    },
    command: plugin.consoleCommand,
    // The console gets the plugin's settings: address, folders, who may frame it, its base path.
    env: () => {
      const current = getEngine()?.config ?? initial;
      return consoleEnv({
        base: env,
        url: consoleUrl,
        ...(current ? { diaryDir: current.diaryDir, dataDir: current.dataDir } : {}),
        allowedOrigins: [...(current?.console.allowedOrigins ?? []), ...startedFrom],
        allowedHosts: current?.console.allowedHosts ?? [],
        basePath: plugin.consoleBasePath,
      });
    },
    log,
  });
  // Origins of DSH pages that asked to start the console (same-site, with the token): they frame it.
  const startedFrom = new Set<string>();
  const guardPolicy = (): GuardPolicy => {
    const current = getEngine()?.config ?? initial;
    return {
      token: consoleLink.token(),
      allowedOrigins: current?.console.allowedOrigins ?? [],
      allowedHosts: current?.console.allowedHosts ?? [],
      trustedProxy: current?.console.trustedProxy ?? false,
    };
  };

  // Registered first so it is undone last, after every listener that could still use the engine.
  effect(ctx, () => () => {
    disposed = true;
    modelInstall.stop();
    consoleLink.stop();
    engine?.close();
  });
  // First start installs the embedding model in the background (embedding.provider auto, none installed).
  const modelInstall = new ModelAutoInstall({ engine: getEngine, log, options: { enabled: plugin.modelAutoInstall, from: plugin.modelFrom }, install: deps.modelInstall });
  deps.onModelInstall?.(modelInstall);

  // Every session works in the workspace of its cwd (resolved once, followed through merges).
  let registry: WorkspaceRegistry | null = null;
  const scopes = new WorkspaceScopes({ registry: () => (disposed ? null : registry), log });
  // The model, its reference vectors and the word tables load once the index is open, in the
  // background: a turn that comes first recalls lexically instead of waiting for them.
  const warmUp = new WarmUp({ engine: getEngine, log });
  deps.onWarmUp?.(warmUp);
  const recall = new RecallChannel({ engine: getEngine, log, workspace: (session) => scopes.workspaceOf(session), lexicalReason: () => warmUp.lexicalReason() });
  /** A recall for this step, waited for at most recallWaitMs; a later one is delivered with a later step. */
  const recallWithin = async (what: string, sessionId: string, run: Promise<void>, ms = plugin.recallWaitMs): Promise<void> => {
    const settled = run.catch((error: unknown) => log.warn(`recall (${what}) failed (session ${sessionId}): ${errorText(error)}`));
    if ((await within(Math.max(0, ms), settled)) === 'late') log.info(`recall (${what}) session=${sessionId}: still running after ${plugin.recallWaitMs} ms, the step goes on; what it finds comes with a later step`);
  };
  /**
   * A tool called while the index is still opening waits for the open (up to TOOL_OPEN_WAIT_MS): the
   * model asked for it, and a second or two beats a "not ready" answer it would act on.
   */
  const whenOpen = (tool: ToolDefinition): ToolDefinition => ({
    ...tool,
    execute: async (args, exec) => {
      if (stillOpening()) await within(TOOL_OPEN_WAIT_MS, ready);
      return tool.execute(args, exec);
    },
  });
  /** Milliseconds left of a step's wait for Engram that began at `since`. */
  const leftOf = (since: number): number => plugin.recallWaitMs - (performance.now() - since);

  // Cross-compaction memory: its own channel over the engine's database and data dir.
  let llm: LlmService | null = null;
  /** The provider/model the latest main turn used: the summary queue's default route. */
  let lastMainRoute: { provider: string; model: string } | null = null;
  let compactionMemory: CompactionMemory | null = null;
  const getCompactionMemory = (): CompactionMemory | null => (disposed ? null : compactionMemory);
  const compaction = new CompactionChannel({ memory: getCompactionMemory, config: () => getEngine()?.config ?? null, log });
  listenForCompactions(ctx, compaction, log);
  ctx.inject?.(['llm'], (scoped) => {
    llm = (scoped as unknown as { llm?: LlmService }).llm ?? null;
    return () => {
      llm = null;
    };
  });
  const resident = new ResidentChannel(log);
  const sink = new NoteSink(getEngine, log);
  let toolsAvailable = false;
  const workspaceInjection = new WorkspaceInjection({ engine: getEngine, workspace: (session) => scopes.workspaceOf(session), toolsAvailable: () => toolsAvailable, log, adapt: workspaceTextFor(profile) });

  const residentText = (config: EngramConfig, current: Engine): string => renderResident(config.runtime, current.residentMemories(), { toolsAvailable: toolsAvailable && sections.toolGuidance });

  // Tier 1 and the diary guideline: static sections, read from config on every assembly.
  const systemPrompt = ctx.systemPrompt;
  effect(ctx, () =>
    systemPrompt.section({
      name: RESIDENT_SECTION_NAME,
      order: initial?.runtime.order ?? 120,
      text: () => {
        const current = getEngine();
        if (!current || current.config.runtime.mode !== 'section') return '';
        try {
          return escapePromptVariables(residentText(current.config, current));
        } catch (error) {
          log.warn(`resident section failed: ${errorText(error)}`);
          return '';
        }
      },
    }),
  );
  effect(ctx, () =>
    systemPrompt.section({
      name: GUIDELINE_SECTION_NAME,
      order: GUIDELINE_ORDER,
      text: () => {
        // Needs only the settings: present from the first request, before the index is open.
        const config = getEngine()?.config ?? initial;
        return config ? escapePromptVariables(guidelineSection(config.diary, BUILTIN_DIARY_GUIDELINE, sections, toolsAvailable)) : '';
      },
    }),
  );

  // Private notebook: this session's rule books, only when non-empty.
  registerNotebookSection(ctx, { engine: getEngine, log, adapt: modelTextFor(profile) });

  // The workspace layer: a static hint by default; index / full are filled per session below.
  effect(ctx, () =>
    systemPrompt.section({
      name: WORKSPACE_SECTION_NAME,
      order: WORKSPACE_SECTION_ORDER,
      text: () => {
        try {
          return workspaceInjection.sectionText();
        } catch (error) {
          log.warn(`workspace section failed: ${errorText(error)}`);
          return '';
        }
      },
    }),
  );
  ctx.on(
    'system-prompt/assemble',
    async (_assembly: PromptAssembly, context: AssembleContext | undefined, next: () => Promise<PromptAssembly>) => {
      const result = await next();
      const since = performance.now();
      try {
        const session = context?.agent?.session;
        if (!session?.header || isSubagent(session) || !(await engineWithin('assemble (workspace)', leftOf(since)))) return result;
        return await workspaceInjection.fill(result, session);
      } catch (error) {
        log.warn(`assemble: workspace section left as is: ${errorText(error)}`);
        return result;
      }
    },
    { prepend: true },
  );

  // Tier 2, context mode: an empty placeholder (text() is synchronous and cannot wait for a recall),
  // filled after the rest of the waterfall has built the final assembly.
  effect(ctx, () => systemPrompt.context({ name: RECALL_CONTEXT_NAME, order: initial?.inject.order ?? 125, text: () => '' }));
  ctx.on(
    'system-prompt/assemble',
    async (_assembly: PromptAssembly, context: AssembleContext | undefined, next: () => Promise<PromptAssembly>) => {
      const result = await next();
      const since = performance.now();
      try {
        const session = context?.agent?.session;
        if (!session || isSubagent(session)) return result;
        const current = await engineWithin('assemble (recall)', leftOf(since));
        if (!current) return result;
        await refreshConfig(current);
        if (current.config.inject.mode !== 'context' || !current.config.inject.enabled) return result;
        if (!Array.isArray(result?.contexts)) return result;
        // Person messages are the pre-step's job (it sees the new one before it is recorded; here, on
        // hosts that assemble first, only the previous one is visible). Todo progress is read here.
        await recallWithin('context', session.header.id, recall.refresh(session, null, 'context', { phaseOnly: true }), leftOf(since));
        const text = recall.contextText(session.header.id, current.config);
        if (text === '') return result;
        return { ...result, contexts: result.contexts.map((entry) => (entry.name === RECALL_CONTEXT_NAME ? { ...entry, text } : entry)) };
      } catch (error) {
        log.warn(`assemble: recall context skipped: ${errorText(error)}`);
        return result;
      }
    },
    { prepend: true },
  );

  // Message mode for both tiers, plus notices about failed diary blocks: appended to this step's
  // decision.messages, right after the messages the host claimed for the step.
  // 004: a shell or file tool aimed at DSH's raw .zstd session logs is denied and pointed to the session tool.
  ctx.on('tools/pre-execute', rawLogGuard({
    dshHome: () => resolveDshHome(getEngine()?.config.sessions.dshHome, env),
    profile,
    onDeny: (tool, readTool) => log.info(`denied ${tool}: it aimed at a raw session log (use ${readTool})`),
  }));
  ctx.on('agent/pre-step', async (payload: PreStepPayload, next: () => Promise<PreStepDecision>) => {
    const decision = await next();
    const since = performance.now();
    if (decision?.kind !== 'enter' || !Array.isArray(decision.messages)) return decision;
    try {
      const session = payload?.agent?.session;
      if (!session || isSubagent(session)) return decision;
      const current = await engineWithin('pre-step', leftOf(since));
      if (!current) return decision;
      await refreshConfig(current);
      const sessionId = session.header.id;
      lastMainRoute = mainRouteOf(sessionEvents(session)) ?? lastMainRoute;
      const messages: UserMessage[] = [];
      const attempt = async (what: string, run: () => Promise<void> | void) => {
        try {
          await run();
        } catch (error) {
          log.warn(`pre-step ${what} skipped (session ${sessionId}): ${errorText(error)}`);
        }
      };

      await attempt('resident', () => {
        const config = current.config;
        if (config.runtime.mode !== 'message') return;
        const message = resident.messageFor(sessionId, sessionEvents(session), config, residentText(config, current));
        if (message) messages.push(message);
      });
      await attempt('recall', async () => {
        if (!current.config.inject.enabled) return;
        // The person's message of this step is in the payload, not yet in the events.
        await recallWithin('pre-step', sessionId, recall.refresh(session, lastPersonMessage(payload.messages ?? []), current.config.inject.mode), leftOf(since));
        const config = current.config;
        if (config.inject.mode !== 'message') return;
        const message = recall.messageFor(session, sessionEvents(session), config);
        if (message) messages.push(message);
      });
      await attempt('compaction', async () => {
        messages.push(...(await compaction.messagesFor(session, payload)));
      });
      await attempt('notice', () => {
        const text = modelTextFor(profile)(renderNotice(sink.takeNotices(sessionId)));
        if (text) messages.push(pluginMessage('notice', text));
      });
      return deliver(payload, decision, messages);
    } catch (error) {
      log.warn(`pre-step: left the decision unchanged: ${errorText(error)}`);
      return decision;
    }
  });

  // Summaries for memories written without one: drained in the background through the host's llm.
  const summaryWorker = startSummaryWorker({ engine: getEngine, complete: completeThrough(() => llm), log, route: () => lastMainRoute });
  effect(ctx, () => () => {
    void summaryWorker.stop();
  });

  // Semantic write blocks: from the recorded reply, and again when the turn stops (idempotent).
  listenForNoteBlocks(ctx, sink, log, (session) => scopes.of(session));

  // Memory.md in the workspace folder: refreshed once a turn has stopped. Registered after the note
  // blocks' listener: turn-stopping listeners run in order, so that turn's blocks are stored by now.
  const mirrors = new MemoryMirrors({ engine: getEngine, registry: () => (disposed ? null : registry), workspace: (session) => scopes.workspaceOf(session), log });
  deps.onMirrors?.(mirrors);
  ctx.on('agent/turn-stopping', (payload: { agent?: { session?: HostSession } }) => {
    const session = payload?.agent?.session;
    if (getEngine() && session?.header && !isSubagent(session) && typeof session.header.cwd === 'string' && session.header.cwd.trim() !== '') mirrors.schedule(session);
  });

  // Tier 3: tools, where the host has a tools service.
  ctx.inject?.(['tools'], (scoped) => {
    toolsAvailable = true;
    // Read once: the host offers what is registered, so a change takes effect when the plugin reloads.
    const disabled = new Set((getEngine()?.config ?? initial)?.tools.disabled ?? []);
    const full = profile === 'full';
    const scope: ToolDeps['scope'] = (exec) => scopes.of(exec?.agent?.session);
    const own = full
      ? createTools({ engine: getEngine, scope })
      : createLeanTools({ engine: getEngine, scope, workspaceOf: (session) => scopes.workspaceOf(session), compaction: getCompactionMemory });
    for (const tool of own) {
      if (!disabled.has(tool.name)) effect(scoped, () => scoped.tools.register(toHostTool(whenOpen(tool), log)));
    }
    if (full) registerCrossSessionTools(scoped, { engine: getEngine, workspaceOf: (session) => scopes.workspaceOf(session), log, skip: disabled, prepare: whenOpen });
    const others = !full ? [] : [...createCompactionTools({ memory: getCompactionMemory }), ...sessionToolSpecs({ config: () => getEngine()?.config ?? null, engine: getEngine, scope })];
    for (const tool of others.filter((t) => !disabled.has(t.name))) {
      try {
        effect(scoped, () => scoped.tools.register(toHostTool(whenOpen(tool), log)));
      } catch (error) {
        // Another plugin may own the name (history_read is a common one): ours is then left out.
        log.warn(`tool ${tool.name} not registered: ${errorText(error)}`);
      }
    }
    return () => {
      toolsAvailable = false;
    };
  });

  // Routes on whichever HTTP service this host generation has (never both: same table).
  let routesOn: string | null = null;
  const status = () =>
    describeStatus({ engine: getEngine(), engineError, console: consoleLink, model: modelInstall.status(), plugin: { name: PLUGIN_NAME, version: PLUGIN_VERSION, routesOn, toolsAvailable } });
  const routes = [
    ...createRoutes({
      status,
      console: consoleLink,
      consoleBasePath: plugin.consoleBasePath,
      policy: guardPolicy,
      logTail: (lines) => ({ file: logFile.path, lines: logFile.tail(lines) }),
      onStartFrom: (origin) => {
        if (origin) startedFrom.add(origin);
      },
    }),
    ...createCompactionRoutes({ channel: compaction, policy: guardPolicy }),
    ...createLightViewRoutes({ engine: getEngine, engineError: () => engineError, policy: guardPolicy, logFile: () => logFile.path }),
    ...createSummaryTryRoutes({ engine: getEngine, complete: completeThrough(() => llm), route: () => lastMainRoute, policy: guardPolicy }),
  ];
  for (const service of ['httpServer', 'webServer'] as const) {
    ctx.inject?.([service], (scoped) => {
      if (routesOn !== null) return;
      routesOn = service;
      for (const route of routes) effect(scoped, () => scoped[service].register(route));
      return () => {
        if (routesOn === service) routesOn = null;
      };
    });
  }

  // What needs the open index starts once it is open.
  ready = opening === null
    ? Promise.resolve(null)
    : opening.then(
        (open) => {
          if (disposed) {
            open.close();
            return null;
          }
          engine = open;
          log.info(`engine open: diaries ${open.config.diaryDir}, data ${open.config.dataDir}`);
          registry = new WorkspaceRegistry(open);
          try {
            compactionMemory = new CompactionMemory({
              database: open.database,
              dataDir: open.config.dataDir,
              tokenizer: open.tokenizer,
              config: () => open.config,
              complete: completeThrough(() => llm),
              log: engineLogger(log),
            });
          } catch (error) {
            log.warn(`compaction memory unavailable: ${errorText(error)}`);
          }
          deps.onEngine?.(open);
          modelInstall.start();
          warmUp.start();
          if (plugin.autoStartConsole) {
            void consoleLink.start().then(
              (outcome) => log.info(`console auto-start: ${outcome.ok ? outcome.state : outcome.message}`),
              (error) => log.warn(`console auto-start failed: ${errorText(error)}`),
            );
          }
          return open;
        },
        (error: unknown) => {
          engineError = errorText(error);
          log.error(`engine failed to open, memory is off: ${engineError}`);
          return null;
        },
      );
  deps.onOpening?.(ready);
}
