// The slice of the DSH host API the plugin relies on (see /work/shared/dsh-contract.md). Declared
// here rather than imported from the simulator: the plugin must not depend on a test package, and
// where two host generations disagree both shapes are listed so callers feature-detect.

export interface ContentBlock {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface MessageSource {
  kind: string;
  plugin?: string;
  form?: string;
  [key: string]: unknown;
}

export interface UserMessage {
  id: string;
  role: 'user';
  content: ContentBlock[];
  source: MessageSource;
}

export interface HostEvent<T = any> {
  type: string;
  seq: number;
  time?: number;
  data: T;
  surfaceOp?: { op: string; start: number; end: number };
}

export interface HostSession {
  header: { id: string; cwd?: string; origin?: string; parentSession?: string };
  /** Newer hosts. */
  snapshotEvents?: () => readonly HostEvent[];
  /** rc.8: a getter. */
  readonly events?: readonly HostEvent[];
}

export interface HostAgent {
  session?: HostSession;
  // `inbox` exists on the real agent; the plugin never reads it (anything there becomes user input).
}

export type PreStepDecision = { kind: 'reject' } | { kind: 'enter'; messages: UserMessage[]; startsRequestSeries?: true };

export interface PreStepPayload {
  agent?: HostAgent;
  messages: readonly UserMessage[];
  turn: number;
  step: number;
}

export interface AssembledEntry {
  name: string;
  text: string;
}

export interface PromptAssembly {
  sections: AssembledEntry[];
  contexts: AssembledEntry[];
  tools: unknown[];
  variables: Record<string, string | undefined>;
  [key: string]: unknown;
}

export interface AssembleContext {
  agent?: HostAgent;
  [key: string]: unknown;
}

export interface HostLogger {
  info(message: unknown, ...args: unknown[]): void;
  warn(message: unknown, ...args: unknown[]): void;
  error(message: unknown, ...args: unknown[]): void;
  debug(message: unknown, ...args: unknown[]): void;
}

export interface ToolExec {
  callId: string;
  name: string;
  /** Parsed arguments in the real host (ToolExecutionInput.arguments); the plugin reads `args` instead. */
  arguments: unknown;
  agent?: HostAgent;
  signal?: AbortSignal;
}

/** A tool spec of this plugin: render gives the text the model reads (toHostTool makes it host-shaped). */
export interface ToolDefinition<A = any, V = any> {
  name: string;
  description: string;
  parameters: unknown;
  output?: { schema?: unknown; render?: (args: A, value: V) => string | ContentBlock[] };
  execute(args: A, exec: ToolExec): unknown;
  timeoutMs?: number;
}

/** What the host's tools.register takes (packages/core/tools/src/index.ts ToolDefinition): output is mandatory, render returns blocks. */
export interface HostToolDefinition<A = any, V = any> {
  name: string;
  description: string;
  parameters: unknown;
  output: { schema: unknown; render: (args: A, value: V) => ContentBlock[] };
  execute(args: A, exec: ToolExec): unknown;
  timeoutMs?: number;
}

export interface RouteDefinition {
  kind: 'exact' | 'prefix';
  path: string;
  handler(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): unknown;
}

/** The cordis-like context a host-half plugin receives. */
export interface HostContext {
  on(name: string, listener: (...args: any[]) => unknown, options?: boolean | { prepend?: boolean; global?: boolean }): () => void;
  effect?(execute: () => unknown): () => void;
  inject?(deps: string[], callback: (ctx: HostContext) => unknown): () => void;
  get?(name: string): any;
  logger?: ((name: string) => HostLogger) | HostLogger;
  readonly systemPrompt?: any;
  readonly tools?: any;
  readonly webServer?: any;
  readonly httpServer?: any;
}
