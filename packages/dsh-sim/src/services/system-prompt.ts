// The systemPrompt service. The order inside `assemble` is the point of this module: every
// section's and context's `text()` is evaluated synchronously FIRST, and only then does the
// `system-prompt/assemble` waterfall run. A context whose text() waits for a recall therefore
// contributes nothing (seed pitfall #6); a plugin must register a placeholder and fill it in a
// prepend listener after `await next()`.
import type { Context, ServiceProvider } from '../context.ts';
import type { EventBus } from '../events.ts';
import type { AssembledEntry, PromptAssembly, ToolSchema } from '../types.ts';

export interface AssembleContext {
  agent?: { session: unknown };
  signal?: AbortSignal;
  [key: string]: unknown;
}

type TextSource = string | ((context: AssembleContext) => string);

export interface SectionInput {
  name: string;
  order: number;
  text: TextSource;
  /** The whole system prompt: restored as the only section after the waterfall. */
  complete?: boolean;
}

export interface ContextInput {
  name: string;
  order: number;
  text: TextSource;
}

interface Registered<T> {
  input: T;
  owner: string;
}

export interface SystemPromptDeps {
  bus: EventBus;
  toolSchemas(): ToolSchema[];
  /** Turns whatever `assemble()` was given (a session, or an AssembleContext) into the waterfall's context. */
  resolveContext(arg: unknown): AssembleContext;
}

function compareByOrderThenName(a: { order: number; name: string }, b: { order: number; name: string }): number {
  return a.order - b.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function evaluate(text: TextSource, context: AssembleContext, what: string): string {
  const value = typeof text === 'function' ? text(context) : text;
  if (typeof value !== 'string') {
    // A Promise here is the classic mistake: text() cannot await a recall.
    const kind = typeof (value as { then?: unknown } | null)?.then === 'function' ? 'a Promise (text() is evaluated synchronously)' : typeof value;
    throw new TypeError(`${what} text() must return a string, got ${kind}`);
  }
  return value;
}

export class SystemPromptService implements ServiceProvider {
  private readonly sections = new Map<string, Registered<SectionInput>>();
  private readonly contexts = new Map<string, Registered<ContextInput>>();
  private readonly variables = new Map<string, Registered<(context: AssembleContext) => string | undefined>>();

  constructor(private readonly deps: SystemPromptDeps) {}

  section(input: SectionInput, owner = '<host>'): () => void {
    this.checkInput(input, 'section');
    if (this.sections.has(input.name)) throw new Error(`prompt section "${input.name}" is already registered`);
    const entry = { input, owner };
    this.sections.set(input.name, entry);
    return () => {
      if (this.sections.get(input.name) === entry) this.sections.delete(input.name);
    };
  }

  context(input: ContextInput, owner = '<host>'): () => void {
    this.checkInput(input, 'context');
    if (this.contexts.has(input.name)) throw new Error(`prompt context "${input.name}" is already registered`);
    const entry = { input, owner };
    this.contexts.set(input.name, entry);
    return () => {
      if (this.contexts.get(input.name) === entry) this.contexts.delete(input.name);
    };
  }

  variable(name: string, provider: (context: AssembleContext) => string | undefined, owner = '<host>'): () => void {
    if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`invalid prompt variable name "${name}"`);
    if (this.variables.has(name)) throw new Error(`prompt variable "${name}" is already registered`);
    const entry = { input: provider, owner };
    this.variables.set(name, entry);
    return () => {
      if (this.variables.get(name) === entry) this.variables.delete(name);
    };
  }

  sectionNames(): string[] {
    return [...this.sections.keys()];
  }

  contextNames(): string[] {
    return [...this.contexts.keys()];
  }

  /** Evaluate providers, then run the waterfall; the waterfall's return value is authoritative. */
  async assemble(arg?: unknown): Promise<PromptAssembly> {
    const context = this.deps.resolveContext(arg);
    const variables: Record<string, string | undefined> = {};
    for (const [name, entry] of this.variables) variables[name] = entry.input(context);

    const sectionDefs = [...this.sections.values()].map((e) => e.input).sort(compareByOrderThenName);
    const complete = sectionDefs.filter((s) => s.complete === true);
    if (complete.length > 1) throw new Error(`multiple complete prompt sections are active: ${complete.map((s) => s.name).join(', ')}`);
    let completeSection: AssembledEntry | undefined;
    const sections = sectionDefs.map((section) => {
      const assembled = { name: section.name, text: evaluate(section.text, context, `section "${section.name}"`) };
      if (section.complete === true) completeSection = { ...assembled };
      return assembled;
    });
    const contexts = [...this.contexts.values()]
      .map((e) => e.input)
      .sort((a, b) => a.order - b.order)
      .map((entry) => {
        return { name: entry.name, text: evaluate(entry.text, context, `context "${entry.name}"`) };
      });
    const assembly: PromptAssembly = { sections, contexts, tools: this.deps.toolSchemas(), variables };

    const transformed = (await this.deps.bus.waterfall('system-prompt/assemble', [assembly, context], () => assembly)) as PromptAssembly | undefined;
    if (transformed === null || typeof transformed !== 'object') {
      throw new TypeError(`system-prompt/assemble returned ${String(transformed)}: a listener must return the value of \`await next()\` (or a modified assembly)`);
    }
    return completeSection ? { ...transformed, sections: [completeSection] } : transformed;
  }

  facade(ctx: Context) {
    const owner = ctx.name;
    return {
      section: (input: SectionInput) => ctx.track(this.section(input, owner)),
      context: (input: ContextInput) => ctx.track(this.context(input, owner)),
      variable: (name: string, provider: (context: AssembleContext) => string | undefined) => ctx.track(this.variable(name, provider, owner)),
      assemble: (arg?: unknown) => this.assemble(arg),
    };
  }

  private checkInput(input: SectionInput | ContextInput, kind: string): void {
    if (typeof input?.name !== 'string' || input.name.length === 0) throw new TypeError(`prompt ${kind} needs a name`);
    if (!Number.isFinite(input.order)) throw new TypeError(`prompt ${kind} "${input.name}" order must be a finite number`);
    if (typeof input.text !== 'string' && typeof input.text !== 'function') {
      throw new TypeError(`prompt ${kind} "${input.name}" text must be a string or a function`);
    }
  }
}
