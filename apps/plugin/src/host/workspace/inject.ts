// What the workspace layer puts in the system prompt (config workspace.inject):
//   hint (default) — one static line telling the model it has memories and which tools reach them:
//                    the same bytes for every session and request, so the prefix cache keeps hitting;
//   index          — the session's workspace (+ global): pinned, then most recently changed, one line
//                    each, at most workspace.injectMaxItems;
//   full           — the same memories with their whole summaries (capped in count and characters);
//   off            — nothing.
// One section serves every session, so index and full are filled per session in the assemble
// waterfall. They are computed once per session and kept: the session's system prompt then stays
// byte-identical while it works (a memory written meanwhile is found through the tools instead).
import { workspaceHintText, workspaceLayer, type Engine } from '@engram/engine';
import type { HostLogger, HostSession, PromptAssembly } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';
import { escapePromptVariables } from '../core/texts.ts';

export const WORKSPACE_SECTION_NAME = 'engram:workspace';
/** Among the tool guidance (100–199), after the resident memories (120). */
export const WORKSPACE_SECTION_ORDER = 128;
const MAX_SESSIONS = 256;

export interface WorkspaceInjectDeps {
  engine(): Engine | null;
  workspace(session: HostSession): Promise<string>;
  toolsAvailable(): boolean;
  log: HostLogger;
  /** Rewrites the text for the tool profile (profiles.ts workspaceTextFor); absent = as rendered. */
  adapt?(text: string, mode: 'hint' | 'index' | 'full'): string;
}

export class WorkspaceInjection {
  private readonly frozen = new Map<string, { key: string; text: string }>();

  constructor(private readonly deps: WorkspaceInjectDeps) {}

  /** The section's static text: the hint in hint mode, '' otherwise (index/full are filled later). */
  sectionText(): string {
    const engine = this.deps.engine();
    if (!engine || engine.config.workspace.inject !== 'hint') return '';
    const hint = workspaceHintText(this.deps.toolsAvailable());
    return this.deps.adapt ? this.deps.adapt(hint, 'hint') : hint;
  }

  /** index / full: the session's text (computed on its first request, then kept); null in the other modes. */
  async textFor(session: HostSession): Promise<string | null> {
    const engine = this.deps.engine();
    if (!engine) return null;
    const { inject: mode, injectMaxItems: max } = engine.config.workspace;
    if (mode !== 'index' && mode !== 'full') return null;
    const workspace = await this.deps.workspace(session);
    const tools = this.deps.toolsAvailable();
    const key = `${mode}|${max}|${workspace}|${tools}`;
    const sessionId = session.header.id;
    const kept = this.frozen.get(sessionId);
    if (kept?.key === key) return kept.text;
    // The engine's render of the layer, the one the console's level preview shows (preview/workspace-levels.ts).
    const { text: rendered, entries, total } = await workspaceLayer(engine, mode, workspace, { max, toolsAvailable: tools });
    const text = escapePromptVariables(this.deps.adapt ? this.deps.adapt(rendered, mode) : rendered);
    this.frozen.set(sessionId, { key, text });
    while (this.frozen.size > MAX_SESSIONS) this.frozen.delete(this.frozen.keys().next().value!);
    this.deps.log.info(`workspace inject ${mode} session=${sessionId} workspace=${workspace}: ${entries.length} of ${total} memories`);
    return text;
  }

  /** The assembly with this session's index / full text in our section (unchanged in hint / off). */
  async fill(assembly: PromptAssembly, session: HostSession): Promise<PromptAssembly> {
    if (!Array.isArray(assembly?.sections)) return assembly;
    let text: string | null;
    try {
      text = await this.textFor(session);
    } catch (error) {
      this.deps.log.warn(`workspace inject skipped (session ${session.header.id}): ${errorText(error)}`);
      return assembly;
    }
    if (text === null) return assembly;
    return { ...assembly, sections: assembly.sections.map((s) => (s.name === WORKSPACE_SECTION_NAME ? { ...s, text } : s)) };
  }
}
