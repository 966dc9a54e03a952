// The tools service: a registry of model-callable tools and the host's way of calling one. The
// model hands over `arguments` as a raw JSON string; the host parses it, checks it against the
// tool's JSON Schema (required keys and top-level types, which is where plugins usually slip),
// runs `execute` with a timeout, and renders the value to the content blocks the model reads.
//
// Rules of the real host (source: packages/core/tools/src/index.ts, ToolRegistry.register and
// createSuccessResult; packages/core/tools/src/json-schema.ts; packages/core/session/src/json.ts):
// - `output` is mandatory: `{ schema, render, presentationMeta? }`, else register throws a TypeError;
// - `output.schema` must be in the host's JSON Schema subset, else register throws;
// - the value `execute` returns must be lossless JSON and match `output.schema`, else the call is
//   an invalid-output error result;
// - `render(args, value)` must return content blocks. A string passes the host's JSON snapshot and
//   then breaks the step that reads it (`content.some is not a function`), and every later turn of
//   that session fails before a request is sent: see ToolOutcome.brokenContent and turn.ts.
import type { Context, ServiceProvider } from '../context.ts';
import type { ContentBlock, ToolSchema } from '../types.ts';
import { losslessJsonProblem, schemaViolations, valueViolations } from '../json-schema.ts';

export interface ToolExec {
  callId: string;
  name: string;
  /** The parsed arguments (host: packages/core/tools/src/index.ts ToolExecutionInput.arguments); the raw string is in the tool/call event. */
  arguments: unknown;
  agent?: unknown;
  signal: AbortSignal;
}

export interface ToolDefinition {
  name: string;
  description: string;
  parameters: unknown;
  output: { schema: unknown; render: (args: any, value: any) => ContentBlock[]; presentationMeta?: (args: any, value: any) => unknown };
  execute(args: any, exec: ToolExec): unknown;
  timeoutMs?: number;
}

export interface ToolOutcome {
  /** What the model reads in the tool result: the text of its content blocks. */
  text: string;
  /** The content blocks of the tool result. */
  content: ContentBlock[];
  /** Set when render returned something that is not a list of content blocks: the turn fails on it. */
  brokenContent?: unknown;
  value?: unknown;
  error?: { name: string; code: string; message: string };
}

/**
 * The host's gate before a tool runs (packages/core/tools/src/index.ts, `PreToolDecision` and the
 * `tools/pre-execute` waterfall in ToolRegistry.prepareExecution): allow, deny with a reason, or ask.
 * Without an approval service `ask` is a denial; a denial is an error result `Error: <reason>` and
 * the tool body never runs.
 */
export type PreToolDecision = { kind: 'allow' } | { kind: 'deny'; reason: string } | { kind: 'ask'; reason?: string };

export interface CallOptions {
  callId?: string;
  agent?: unknown;
  signal?: AbortSignal;
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

function matchesType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
  }
}

/** Returns a problem description, or null when the arguments fit the schema's top level. */
export function checkArguments(args: Record<string, unknown>, schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const { required, properties } = schema as { required?: unknown; properties?: Record<string, { type?: JsonType | JsonType[] }> };
  if (Array.isArray(required)) {
    for (const key of required) if (!(key in args)) return `missing required argument "${String(key)}"`;
  }
  if (properties && typeof properties === 'object') {
    for (const [key, spec] of Object.entries(properties)) {
      if (!(key in args) || spec?.type === undefined) continue;
      const types = Array.isArray(spec.type) ? spec.type : [spec.type];
      if (!types.some((t) => matchesType(args[key], t))) return `argument "${key}" should be ${types.join(' | ')}`;
    }
  }
  return null;
}

/** Parses the model's raw argument string like the host: empty means `{}`, anything but an object is refused. */
export function parseToolArguments(raw: string): { ok: true; args: Record<string, unknown> } | { ok: false; message: string } {
  if (raw.trim() === '') return { ok: true, args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return { ok: false, message: `arguments are not valid JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, message: 'arguments must be a JSON object' };
  return { ok: true, args: parsed as Record<string, unknown> };
}

function toCallOptions(target: unknown): CallOptions {
  if (target === undefined || target === null) return {};
  const maybeSession = target as { header?: unknown; agent?: unknown };
  if (maybeSession.header !== undefined && maybeSession.agent !== undefined) return { agent: maybeSession.agent };
  return target as CallOptions;
}

const isContentBlock = (block: unknown): block is ContentBlock =>
  typeof block === 'object' && block !== null && typeof (block as { type?: unknown }).type === 'string';

/** The text the model reads from a list of blocks. */
export const contentText = (content: ContentBlock[]): string =>
  content.map((b) => (typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : '')).join('\n');

export class ToolsService implements ServiceProvider {
  private readonly tools = new Map<string, { def: ToolDefinition; owner: string }>();
  private callCounter = 0;

  /**
   * `onFailure` hears about tools whose execute threw (not bad arguments or timeouts); `preExecute`
   * runs the host's `tools/pre-execute` waterfall for a call whose arguments passed their schema.
   */
  constructor(
    private readonly onFailure: (tool: string, owner: string, error: unknown) => void,
    private readonly preExecute: (exec: ToolExec) => Promise<PreToolDecision> = async () => ({ kind: 'allow' }),
  ) {}

  register(def: ToolDefinition, owner = '<host>'): () => void {
    if (typeof def?.name !== 'string' || def.name.length === 0) throw new TypeError('tool needs a name');
    if (typeof def.execute !== 'function') throw new TypeError(`tool "${def.name}" needs an execute function`);
    const output = (def as Partial<ToolDefinition>).output;
    if (output === undefined || typeof output !== 'object' || output === null || typeof output.render !== 'function' || (output.presentationMeta !== undefined && typeof output.presentationMeta !== 'function')) {
      throw new TypeError(`tool "${def.name}" must declare output { schema, render, presentationMeta? }`);
    }
    const violations = schemaViolations(output.schema, 'output.schema');
    if (violations.length > 0) throw new Error(`tool "${def.name}": unsupported JSON schema: ${violations.join('; ')}`);
    if (this.tools.has(def.name)) throw new Error(`tool "${def.name}" is already registered`);
    const entry = { def, owner };
    this.tools.set(def.name, entry);
    return () => {
      if (this.tools.get(def.name) === entry) this.tools.delete(def.name);
    };
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()].sort();
  }

  schemas(): ToolSchema[] {
    return this.names().map((name) => {
      const { def } = this.tools.get(name)!;
      return { name, description: def.description, parameters: structuredClone(def.parameters) };
    });
  }

  /**
   * Calls a tool as the host does for a model's tool call; failures become an error outcome, never a throw.
   * `target` is a session (its agent is passed to the tool) or explicit call options.
   */
  async call(name: string, rawArguments: string, target?: unknown): Promise<ToolOutcome> {
    const options = toCallOptions(target);
    const entry = this.tools.get(name);
    const fail = (code: string, message: string): ToolOutcome => ({ text: `Error: ${message}`, content: [{ type: 'text', text: `Error: ${message}` }], error: { name, code, message } });
    if (!entry) return fail('unknown-tool', `unknown tool "${name}"`);
    if (typeof rawArguments !== 'string') return fail('invalid-arguments', 'the host passes tool arguments as a JSON string');
    const parsed = parseToolArguments(rawArguments);
    if (!parsed.ok) return fail('invalid-arguments', parsed.message);
    const problem = checkArguments(parsed.args, entry.def.parameters);
    if (problem) return fail('invalid-arguments', problem);

    const controller = new AbortController();
    const onOuterAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    const exec: ToolExec = {
      callId: options.callId ?? `call-direct-${++this.callCounter}`,
      name,
      arguments: parsed.args,
      agent: options.agent,
      signal: controller.signal,
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const gate = await this.preExecute(exec);
      if (gate.kind !== 'allow') {
        const reason = gate.reason ?? `tool "${name}" needs an approval this host cannot ask for`;
        return fail('denied', reason);
      }
      const running = Promise.resolve().then(() => entry.def.execute(parsed.args, exec));
      const timeoutMs = entry.def.timeoutMs;
      const value = timeoutMs === undefined
        ? await running
        : await Promise.race([
            running,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => {
                controller.abort(new Error('timeout'));
                reject(Object.assign(new Error(`tool "${name}" timed out after ${timeoutMs} ms`), { code: 'timeout' }));
              }, timeoutMs);
            }),
          ]);
      const lossless = losslessJsonProblem(value);
      if (lossless) return fail('invalid-output', `tool "${name}" returned invalid output: ${lossless}`);
      const mismatch = valueViolations(entry.def.output.schema as Record<string, unknown>, value);
      if (mismatch.length > 0) return fail('invalid-output', `tool "${name}" returned invalid output: ${mismatch.join('; ')}`);
      let rendered: unknown;
      try {
        rendered = entry.def.output.render(parsed.args, value);
      } catch (error) {
        return fail('invalid-output', `tool "${name}" returned invalid output: output.render failed: ${(error as Error)?.message ?? String(error)}`);
      }
      const renderProblem = losslessJsonProblem(rendered, 'render');
      if (renderProblem) return fail('invalid-output', `tool "${name}" returned invalid output: output.render returned non-lossless JSON (${renderProblem})`);
      if (!Array.isArray(rendered) || !rendered.every(isContentBlock)) {
        return { text: typeof rendered === 'string' ? rendered : JSON.stringify(rendered), content: [], brokenContent: rendered, value };
      }
      return { text: contentText(rendered), content: rendered, value };
    } catch (error) {
      const code = (error as { code?: unknown })?.code === 'timeout' ? 'timeout' : 'execute';
      if (code !== 'timeout') this.onFailure(name, entry.owner, error);
      return fail(code, (error as Error)?.message ?? String(error));
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  facade(ctx: Context) {
    return {
      register: (def: ToolDefinition) => ctx.track(this.register(def, ctx.name)),
      call: (name: string, rawArguments: string, target?: unknown) => this.call(name, rawArguments, target),
    };
  }
}
