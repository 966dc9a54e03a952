// Shapes the simulated host shares with the plugins it loads and the tests that drive it.
// They follow /work/shared/dsh-contract.md; anything the contract leaves open is marked.

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolCallBlock {
  type: 'tool-call';
  callId: string;
  name: string;
  /** Raw JSON string, exactly as the model produced it. */
  arguments: string;
}

export type ContentBlock = TextBlock | ToolCallBlock | { type: string; [key: string]: unknown };

/** `kind: 'user'` is a person; everything else (plugin, model, tool, ...) is not a query. */
export interface MessageSource {
  kind: string;
  plugin?: string;
  form?: 'instructions' | 'catalog' | 'snapshot' | 'notice' | 'relay' | 'recall' | string;
  [key: string]: unknown;
}

export interface UserMessage {
  id: string;
  role: 'user';
  content: ContentBlock[];
  source: MessageSource;
}

export interface EventEnvelope<T = any> {
  type: string;
  seq: number;
  time: number;
  data: T;
  /** Only on events that rewrite the model-visible history (compaction replacements). */
  surfaceOp?: { op: 'replace'; start: number; end: number };
  sourceEventSeqs?: number[];
}

export interface SessionHeader {
  id: string;
  cwd?: string;
  origin?: string;
  parentSession?: string;
}

export type PreStepDecision =
  | { kind: 'reject' }
  | { kind: 'enter'; messages: UserMessage[]; startsRequestSeries?: true };

export interface PreStepPayload {
  agent: unknown;
  messages: readonly UserMessage[];
  turn: number;
  step: number;
  signal: AbortSignal;
}

export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface ToolSchema {
  name: string;
  description: string;
  parameters: unknown;
}

export interface AssembledEntry {
  name: string;
  text: string;
}

export interface PromptAssembly {
  sections: AssembledEntry[];
  contexts: AssembledEntry[];
  tools: ToolSchema[];
  variables: Record<string, string | undefined>;
}

/** One message of the history the host sends to the model. */
export interface RequestMessage {
  role: 'user' | 'assistant' | 'tool';
  /** Text blocks joined with a blank line. */
  content: string;
  source?: MessageSource;
  /** Assistant messages: the calls it made (arguments are raw JSON strings). */
  toolCalls?: { callId: string; name: string; arguments: string }[];
  /** Tool results: which call they answer. */
  callId?: string;
  name?: string;
}

/** Everything the host would send to the model for one step. */
export interface RecordedRequest {
  sessionId: string;
  origin: string | undefined;
  turn: number;
  step: number;
  provider: string;
  model: string;
  system: string;
  messages: RequestMessage[];
  tools: string[];
}

export interface ScriptToolCall {
  name: string;
  /** An object is serialised with JSON.stringify; a string is passed through untouched (so tests can send broken JSON). */
  arguments?: unknown;
  callId?: string;
}

/** What the scripted "model" does in one step. */
export interface ScriptStep {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptToolCall[];
  usage?: Usage;
}

/** A step may also be computed from the request the model received. */
export type ScriptEntry = ScriptStep | ((request: RecordedRequest) => ScriptStep);

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
}

/** Stream chunks of `llm.stream` and of `assistant/chunk` events. */
export type StreamChunk =
  | { type: 'block-start'; index: number; blockType: 'text' | 'reasoning' | 'tool-call' }
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'reasoning-delta'; index: number; text: string }
  | { type: 'tool-call-delta'; index: number; callId: string; name: string; arguments: string }
  | { type: 'block-end'; index: number; block: ContentBlock }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: { kind: 'stop' | 'tool-calls' | 'max-tokens' } };

export interface HostError {
  /** Where it was caught: an event name, 'tool:<name>', 'http', 'load:<plugin>', 'turn', ... */
  where: string;
  plugin?: string;
  error: unknown;
}

export interface InboxViolation {
  member: string;
  op: 'get' | 'set' | 'has' | 'delete' | 'define' | 'call';
  sessionId: string;
  stack?: string;
}

export interface LogLine {
  name: string;
  level: 'info' | 'warn' | 'error' | 'debug' | 'success';
  message: string;
  time: number;
}
