// The client half of the host: how the web UI loads a plugin's `exports['./client']` file and
// applies it. Each rule names the host source it reproduces (repository sumomok/deepseek-harness,
// 0.1.1-rc.2):
//
// 1. The file is served as it is and run as a classic script; it must register itself with
//    `window.__ModuleLoader__.load({ id: <package name>, factory })`. A CommonJS file fails with
//    `ReferenceError: module is not defined`, and one that registers nothing (or another id) fails
//    with `bundle … loaded without registering "<id>" via __ModuleLoader__.load`.
//    (packages/client/modules/src/client/system.ts: arrive(); packages/client/modules/src/index.ts:
//    serveBundle reads the file and sends it unchanged; bootInjections installs the facade.)
// 2. The factory gets a synchronous `require` that answers only the module table (react and the
//    other platform seeds); anything else throws. (packages/client/modules/src/client/system.ts: makeRequire)
// 3. `inject` is read the cordis way: an array lists service names; an object's KEYS are service
//    names, so `{ required: [...], optional: [...] }` waits for services "required" and "optional"
//    and the plugin never starts. (vendor/cordis/src/registry.ts: Inject.resolve)
// 4. Reading a service the plugin did not inject throws `cannot get property "<name>" without
//    inject`; optional services go through `ctx.inject([...], cb)`. (vendor/cordis/src/reflect.ts: handler.get)
// 5. Slots have a kind: a list slot needs `options.id`, a keyed slot `options.key`, a chain slot
//    `options.select`; an undeclared slot throws. (packages/client/ui-slots/src/index.ts: register;
//    the kinds of the shipped slots are the host's catalog,
//    packages/extensions/cordis-client-runner/src/client/slot-catalog.ts)
import { runInNewContext } from 'node:vm';

export type SlotKind = 'single' | 'list' | 'keyed' | 'chain';

/**
 * The shipped web UI's slots and their kinds, from the host's generated catalog
 * (packages/extensions/cordis-client-runner/src/client/slot-catalog.ts, 0.1.1-rc.2).
 */
export const HOST_SLOTS: Readonly<Record<string, SlotKind>> = {
  conversation: 'single',
  'conversation.chat.assistant-actions': 'list',
  'conversation.chat.commandview': 'keyed',
  'conversation.chat.node': 'keyed',
  'conversation.chat.turnTail': 'chain',
  'conversation.composer': 'chain',
  'conversation.composer.bar': 'single',
  'conversation.composer.dock': 'list',
  'conversation.details.tool': 'single',
  'conversation.input.dock': 'list',
  'conversation.input.left': 'list',
  'conversation.input.overlay': 'list',
  'conversation.input.right': 'list',
  'conversation.session': 'single',
  'conversation.session.header': 'single',
  'conversation.session.header.actions': 'list',
  'conversation.session.header.utilities': 'list',
  'conversation.view': 'list',
  details: 'single',
  root: 'single',
  'settings.action': 'list',
  'settings.general.item': 'list',
  'settings.onboarding': 'list',
  'settings.plugin.item': 'keyed',
  'settings.plugins.tab': 'list',
  'settings.section': 'list',
  'shell.overlay': 'list',
  sidebar: 'single',
  'sidebar.footer.action': 'list',
  'sidebar.settings': 'single',
  'tool.call.toolview': 'keyed',
  'tool.view.cordis': 'keyed',
};

export interface SlotOptions {
  name: string;
  id?: string;
  key?: string;
  select?: unknown;
  order?: number;
  priority?: number;
  label?: string | (() => string);
  [key: string]: unknown;
}

export interface SlotEntry {
  options: SlotOptions;
  component: unknown;
}

/** The `slots` service: declared slots by kind, registrations, and `inject` waiting for a slot. */
export class SlotTable {
  /** Every registration, in order (the host's raw ledger). */
  readonly registered: SlotEntry[] = [];
  private readonly kinds: Map<string, SlotKind>;

  constructor(kinds: Record<string, SlotKind>) {
    this.kinds = new Map(Object.entries(kinds));
  }

  kindOf(name: string): SlotKind | undefined {
    return this.kinds.get(name);
  }

  of(name: string): SlotEntry[] {
    return this.registered.filter((e) => e.options.name === name);
  }

  /** The host's `slots.entries(name)`: a slot's registrations, in order (packages/client/ui-slots/src/index.ts). */
  entries(name: string): readonly SlotEntry[] {
    return this.of(name);
  }

  /** The entry a keyed cell renders: the lowest priority wins (ties: the first registered). */
  winner(name: string, key: string): SlotEntry | undefined {
    const cell = this.of(name).filter((e) => e.options.key === key);
    return cell.reduce<SlotEntry | undefined>((best, e) => (best === undefined || (e.options.priority ?? 0) < (best.options.priority ?? 0) ? e : best), undefined);
  }

  register(options: SlotOptions, component: unknown): () => void {
    const kind = this.kinds.get(options?.name);
    if (kind === undefined) throw new Error(`slot "${options?.name}" is not declared (a parent entry's children table must declare it)`);
    const priority = options.priority ?? 0;
    const same = (e: SlotEntry) => e.options.name === options.name && (e.options.priority ?? 0) === priority;
    if (kind === 'list') {
      if (options.id === undefined) throw new Error(`list slot "${options.name}" requires options.id`);
      if (this.registered.some((e) => same(e) && e.options.id === options.id)) throw new Error(`list slot "${options.name}" already has an entry with id "${options.id}"`);
    } else if (kind === 'keyed') {
      if (options.key === undefined) throw new Error(`keyed slot "${options.name}" requires options.key`);
      if (this.registered.some((e) => same(e) && e.options.key === options.key)) throw new Error(`keyed slot "${options.name}" already has an entry for key "${options.key}"`);
    } else if (kind === 'chain') {
      if (options.select === undefined) throw new Error(`chain slot "${options.name}" requires options.select`);
    } else if (this.registered.some(same)) {
      throw new Error(`single slot "${options.name}" already has a registration at priority ${priority}`);
    }
    const entry = { options, component };
    this.registered.push(entry);
    return () => {
      const i = this.registered.indexOf(entry);
      if (i >= 0) this.registered.splice(i, 1);
    };
  }

  /** Runs `callback` once the slot is declared (all catalog slots are, here); its disposer runs on unload. */
  inject(name: string, callback: () => (() => void) | void): () => void {
    if (!this.kinds.has(name)) return () => {};
    const dispose = callback();
    return typeof dispose === 'function' ? dispose : () => {};
  }
}

export interface ClientLoadOptions {
  /** The package name: the id the file must register under (the host's graph row id). */
  id: string;
  /** What `require` answers (the platform seeds), e.g. `{ react }`. */
  modules: Record<string, unknown>;
  /** Services besides `slots` (e.g. `sidebarRightTabs` on hosts that have it). */
  services?: Record<string, unknown>;
  /** Slot kinds; default HOST_SLOTS. */
  slots?: Record<string, SlotKind>;
  /** Browser globals the file may use at run time (fetch, location, setTimeout...). */
  globals?: Record<string, unknown>;
  /**
   * The host's own registrations, there before plugins apply (e.g. ui-conversation's native
   * `conversation.chat.node` renderer for key 'assistant-step', which a plugin may shadow and wrap).
   */
  hostEntries?: { options: SlotOptions; component: unknown }[];
}

export interface LoadedClient {
  /** active: applied; pending: waits for services that never come (the host's boot hangs on it). */
  status: 'active' | 'pending';
  waitingFor: string[];
  exports: Record<string, unknown>;
  slots: SlotTable;
  /** Disposes everything apply registered through ctx.effect / ctx.inject. */
  dispose(): void;
}

export class ClientLoadError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ClientLoadError';
  }
}

const stripClientSuffix = (id: string): string => (id.endsWith('/client') ? id.slice(0, -'/client'.length) : id);

/** cordis Inject.resolve: an array gives its names, an object its keys. */
export function injectedNames(inject: unknown): string[] {
  if (inject === undefined || inject === null) return [];
  if (Array.isArray(inject)) return inject.map(String);
  if (typeof inject === 'object') return Object.keys(inject);
  return [];
}

const CONTEXT_MEMBERS = new Set(['effect', 'inject', 'on', 'emit', 'logger', 'plugin', 'name', 'runtime', 'fiber', 'get', 'set', 'provide', 'toJSON']);

/** A cordis-like client context: declared services only, everything else throws as the host does. */
function clientContext(services: Map<string, unknown>, declared: Set<string>, disposers: (() => void)[]): unknown {
  const base: Record<string, unknown> = {
    effect(execute: () => unknown) {
      const dispose = execute();
      if (typeof dispose === 'function') disposers.push(dispose as () => void);
      return dispose;
    },
    inject(deps: unknown, callback: (ctx: unknown) => unknown) {
      const names = injectedNames(deps);
      if (names.some((n) => !services.has(n))) return () => {};
      const dispose = callback(clientContext(services, new Set([...declared, ...names]), disposers));
      if (typeof dispose === 'function') disposers.push(dispose as () => void);
      return () => {};
    },
  };
  return new Proxy(base, {
    get(target, prop) {
      if (typeof prop === 'symbol' || prop === 'then') return undefined;
      if (Object.hasOwn(target, prop)) return target[prop];
      if (declared.has(prop) && services.has(prop)) return services.get(prop);
      if (CONTEXT_MEMBERS.has(prop)) return undefined;
      throw new Error(`cannot get property "${prop}" without inject`);
    },
  });
}

/** Runs a client file's text exactly as the host's web UI does and applies the plugin it registers. */
export function loadClientBundle(code: string, options: ClientLoadOptions): LoadedClient {
  const url = `/plugins/${options.id}/client.js`;
  const registrations: { id: string; factory: unknown }[] = [];
  const sandbox: Record<string, unknown> = { ...options.globals };
  sandbox.window = sandbox;
  sandbox.self = sandbox;
  sandbox.__ModuleLoader__ = { mode: 'live', pendingQueue: [], load: (registration: { id: string; factory: unknown }) => registrations.push(registration) };
  try {
    runInNewContext(code, sandbox, { filename: url });
  } catch (error) {
    throw new ClientLoadError(`Failed to load plugins: ${url}: ${(error as Error)?.name ?? 'Error'}: ${(error as Error)?.message ?? String(error)}`, error);
  }
  const registration = registrations.find((r) => stripClientSuffix(String(r?.id)) === options.id);
  if (!registration || typeof registration.factory !== 'function') {
    throw new ClientLoadError(`Failed to load plugins: client-modules: bundle ${url} loaded without registering "${options.id}" via __ModuleLoader__.load`);
  }
  const require = (spec: string): unknown => {
    if (Object.hasOwn(options.modules, spec)) return options.modules[spec];
    throw new ClientLoadError(`client-modules: require("${spec}") missed the module table — not a platform seed word, not a materialized module, and no registered package factory`);
  };
  const exports = (registration.factory as (r: typeof require) => Record<string, unknown>)(require);
  if (typeof exports !== 'object' || exports === null || typeof exports.apply !== 'function') {
    throw new ClientLoadError(`Failed to load plugins: ${options.id}: the client module exports no apply(ctx)`);
  }
  // dsh-contract.md (real host): a default export breaks boot.
  if ('default' in exports) throw new ClientLoadError(`Failed to load plugins: ${options.id}: the client module has a default export`);

  const slots = new SlotTable(options.slots ?? HOST_SLOTS);
  for (const entry of options.hostEntries ?? []) slots.register(entry.options, entry.component);
  const services = new Map<string, unknown>([['slots', slots], ...Object.entries(options.services ?? {})]);
  const names = injectedNames(exports.inject);
  const waitingFor = names.filter((n) => !services.has(n));
  const disposers: (() => void)[] = [];
  const dispose = () => {
    for (const d of disposers.splice(0).reverse()) d();
  };
  if (waitingFor.length > 0) return { status: 'pending', waitingFor, exports, slots, dispose };
  (exports.apply as (ctx: unknown, config?: unknown) => unknown)(clientContext(services, new Set(names), disposers), undefined);
  return { status: 'active', waitingFor: [], exports, slots, dispose };
}
