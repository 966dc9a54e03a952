// Which workspace a session works in: resolved once per session from its cwd (the registry decides
// same / claim / ask / new), then followed through merges done in the console meanwhile. A session
// without a cwd works in global; a call without a session is unscoped.
import { GLOBAL_WORKSPACE, type WorkspaceRegistry } from '@engram/engine';
import type { HostLogger, HostSession } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';

const MAX_SESSIONS = 256;
/** A first turn waits this long for another writer (a console reindex) before working in a fallback scope. */
const RESOLVE_LOCK_WAIT_MS = 10_000;

export interface SessionScope {
  /** The workspace id (or 'global'); null = unscoped: no session is known, so nothing is filtered. */
  workspace: string | null;
  /** The session writing, for the memories' provenance. */
  sessionId: string | null;
}

export const UNSCOPED: Readonly<SessionScope> = Object.freeze({ workspace: null, sessionId: null });

export interface WorkspaceScopeDeps {
  registry(): Pick<WorkspaceRegistry, 'resolve' | 'lookup' | 'redirect'> | null;
  log: HostLogger;
}

export class WorkspaceScopes {
  private readonly cache = new Map<string, Promise<string>>();

  constructor(private readonly deps: WorkspaceScopeDeps) {}

  /** The scope of a session (or of a tool call's session); never throws. */
  async of(session: HostSession | null | undefined): Promise<SessionScope> {
    const sessionId = session?.header?.id;
    if (typeof sessionId !== 'string' || sessionId === '') return UNSCOPED;
    return { workspace: await this.workspaceOf(session!), sessionId };
  }

  /** The workspace id of a session: its cwd's workspace, 'global' without a cwd. */
  async workspaceOf(session: HostSession): Promise<string> {
    const sessionId = session.header.id;
    const cwd = typeof session.header.cwd === 'string' ? session.header.cwd.trim() : '';
    if (cwd === '') return GLOBAL_WORKSPACE;
    let pending = this.cache.get(sessionId);
    if (!pending) {
      pending = this.resolve(sessionId, cwd);
      this.cache.set(sessionId, pending);
      while (this.cache.size > MAX_SESSIONS) this.cache.delete(this.cache.keys().next().value!);
    }
    const id = await pending;
    return this.follow(sessionId, id);
  }

  private async resolve(sessionId: string, cwd: string): Promise<string> {
    const registry = this.deps.registry();
    if (!registry) {
      this.cache.delete(sessionId);
      return GLOBAL_WORKSPACE;
    }
    try {
      const ws = await registry.resolve(cwd, { lockWaitMs: RESOLVE_LOCK_WAIT_MS });
      const d = ws.decision;
      const note = d.kind === 'ask' ? ` (pending claim: is it ${d.candidates.map((c) => c.id).join(' or ')}? answer in the console)` : d.kind === 'claim' ? ` (moved from ${d.from})` : '';
      this.deps.log.info(`workspace session=${sessionId}: ${ws.id} "${ws.name}" at ${ws.path}, ${d.kind}${note}`);
      return ws.id;
    } catch (error) {
      // Not cached: the next call tries again (a busy writer lock passes, read-only data does not).
      this.cache.delete(sessionId);
      const known = await registry.lookup(cwd).catch(() => null);
      this.deps.log.warn(`workspace session=${sessionId}: could not resolve ${cwd} (${errorText(error)}); using ${known ? known.id : 'global'} for now`);
      return known ? known.id : GLOBAL_WORKSPACE;
    }
  }

  /** A workspace merged away in the console (a claim accepted, say) hands its session on. */
  private async follow(sessionId: string, id: string): Promise<string> {
    const registry = this.deps.registry();
    if (!registry || id === GLOBAL_WORKSPACE) return id;
    try {
      const now = await registry.redirect(id);
      if (now !== id) {
        this.cache.set(sessionId, Promise.resolve(now));
        this.deps.log.info(`workspace session=${sessionId}: ${id} was merged into ${now}`);
      }
      return now;
    } catch {
      return id;
    }
  }
}
