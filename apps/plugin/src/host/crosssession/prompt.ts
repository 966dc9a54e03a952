// The notebook's rule books in the system prompt: this session's own rules and the compaction
// channel's minor rules, under a statement of their precedence. A section, not a message: it is
// part of the stable prefix, and its text is byte-identical on every assembly while the books do
// not change (the same files always render the same bytes), so the prompt cache holds. A session
// whose books are empty gets no text at all, and the host drops the empty section.
//
// How the section knows its session: the host evaluates text(ctx) with the assembly's context,
// `{ agent: { session }, signal }` (packages/dsh-sim/src/services/system-prompt.ts reproduces
// this), so text() reads `ctx.agent.session`. text() must be synchronous, so the books are read
// with synchronous file reads (two small files). A host that called text() without that context
// would leave the section empty; the assemble waterfall — whose context carries the session by
// contract — then fills the same section entry, so the text still lands in the system prompt and
// still stays stable. The pre-step message path is not used: a message would be re-appended each
// turn to the history (or need dedupe) and would not sit in the cached prefix.
import type { Engine, SessionScope } from '@engram/engine';
import { scopeOf } from '../compaction/messages.ts';
import { crossSessionOf } from './tools.ts';
import type { AssembleContext, HostContext, HostLogger, HostSession, PromptAssembly } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';
import { isSubagent } from '../sessions/view.ts';
import { escapePromptVariables } from '../core/texts.ts';

export const NOTEBOOK_SECTION_NAME = 'engram:notebook';
/** After the identity and persona, before the resident memories (120) and the diary guideline (130). */
export const NOTEBOOK_SECTION_ORDER = 110;

export interface NotebookPromptDeps {
  engine(): Engine | null;
  log?: HostLogger;
  /** Rewrites the text for the tool profile (profiles.ts modelTextFor: lean tool names); absent = as rendered. */
  adapt?(text: string): string;
}

/** The section text for one session ('' for subagents, when the engine is closed, or when both books are empty). */
export function notebookSectionText(deps: NotebookPromptDeps, session: HostSession | undefined, warned?: Set<string>): string {
  const engine = deps.engine();
  if (!engine || !session?.header?.id || isSubagent(session)) return '';
  const scope: SessionScope = scopeOf(session);
  try {
    const text = crossSessionOf(engine).notebookInjection(scope);
    return escapePromptVariables(deps.adapt ? deps.adapt(text) : text);
  } catch (error) {
    // Once per session: a bad id or an unreadable book would otherwise log on every step.
    if (!warned || !warned.has(scope.sessionId)) {
      warned?.add(scope.sessionId);
      deps.log?.warn(`notebook section skipped (session ${scope.sessionId}): ${errorText(error)}`);
    }
    return '';
  }
}

const sessionOf = (context: unknown): HostSession | undefined => (context as AssembleContext | undefined)?.agent?.session;

/** Registers the notebook section (needs the systemPrompt service) and its waterfall fallback. */
export function registerNotebookSection(ctx: HostContext, deps: NotebookPromptDeps): void {
  const warned = new Set<string>();
  // Assemblies whose text() already saw the session: the fallback has nothing to add there.
  const answered = new WeakSet<object>();
  const register = () =>
    ctx.systemPrompt.section({
      name: NOTEBOOK_SECTION_NAME,
      order: NOTEBOOK_SECTION_ORDER,
      text: (context: unknown) => {
        const session = sessionOf(context);
        if (session && context !== null && typeof context === 'object') answered.add(context);
        return notebookSectionText(deps, session, warned);
      },
    });
  if (typeof ctx.effect === 'function') ctx.effect(register);
  else register();

  ctx.on(
    'system-prompt/assemble',
    async (_assembly: PromptAssembly, context: AssembleContext | undefined, next: () => Promise<PromptAssembly>) => {
      const result = await next();
      try {
        if (!Array.isArray(result?.sections) || (context && answered.has(context))) return result;
        const at = result.sections.findIndex((s) => s?.name === NOTEBOOK_SECTION_NAME);
        if (at >= 0 && result.sections[at]!.text !== '') return result;
        const text = notebookSectionText(deps, context?.agent?.session, warned);
        if (text === '') return result;
        const sections = at >= 0 ? result.sections.map((s, i) => (i === at ? { ...s, text } : s)) : [...result.sections, { name: NOTEBOOK_SECTION_NAME, text }];
        return { ...result, sections };
      } catch (error) {
        deps.log?.warn(`notebook section fallback skipped: ${errorText(error)}`);
        return result;
      }
    },
    { prepend: true },
  );
}
