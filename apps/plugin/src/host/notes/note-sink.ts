// Semantic write blocks: the model writes <<<DailyNoteStart>>> … <<<DailyNoteEnd>>> into its reply
// and the diary is saved without a tool round trip, by the engine's applyNoteBlocks (parse, then
// Engine.write / Engine.edit with the anchored replace: the same writer as the tools). The same
// reply may arrive twice (the `session/event` for assistant/message and `agent/turn-stopping`, or a
// redelivered event): the per-session set of applied block hashes makes the second one a no-op.
// Failures are queued and told to the model on its next step (a notice message). A session's
// blocks are scoped like its tools: a new memory carries the session's workspace and id, and an
// update only finds memories the session sees (its workspace + global).
import { createHash } from 'node:crypto';
import { applyScopedNoteBlocks, type Engine } from '@engram/engine';
import type { HostContext, HostLogger, HostSession } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';
import type { NoteOutcome } from '../core/texts.ts';
import { isSubagent, sessionEvents, textOfContent } from '../sessions/view.ts';
import type { SessionScope } from '../workspace/scope.ts';

const MAX_HASHES_PER_SESSION = 512;
const MAX_SESSIONS = 256;

export interface SinkResult {
  /** Blocks (and malformed blocks) handled by this call; already-handled ones are not repeated. */
  outcomes: NoteOutcome[];
  skipped: number;
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

const HINTS: Record<string, string> = {
  'title-exists': '同名日记已存在;请改用 command: update(或 engram_edit)修改原来那篇',
  'target-not-found': '请先读取那篇日记,逐字复制一段足够长且唯一的原文作为 target',
  'target-ambiguous': '请逐字复制一段更长、只出现一次的原文作为 target',
  'target-too-short': '请逐字复制一段更长的原文作为 target',
};

export class NoteSink {
  /** Per session: hashes of applied blocks (shared with the engine) and keys of reported parse errors. */
  private readonly seen = new Map<string, { applied: Set<string>; errors: Set<string> }>();
  private readonly pendingNotices = new Map<string, NoteOutcome[]>();
  /** Per session: the consume under way. A second delivery of the same reply waits for it, so turn-stopping returns once the turn's blocks are stored. */
  private readonly inflight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly engine: () => Engine | null,
    private readonly log: HostLogger,
  ) {}

  private seenFor(sessionId: string) {
    let entry = this.seen.get(sessionId);
    if (!entry) {
      entry = { applied: new Set(), errors: new Set() };
      this.seen.set(sessionId, entry);
      while (this.seen.size > MAX_SESSIONS) this.seen.delete(this.seen.keys().next().value!);
    }
    for (const set of [entry.applied, entry.errors]) while (set.size > MAX_HASHES_PER_SESSION) set.delete(set.values().next().value!);
    return entry;
  }

  /** Applies a reply's blocks once; `scope` absent or unscoped = the engine's unscoped writer. One at a time per session. */
  async consume(sessionId: string, reply: string, scope?: SessionScope): Promise<SinkResult> {
    if (!reply.includes('DailyNote')) return { outcomes: [], skipped: 0 };
    const before = this.inflight.get(sessionId) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => this.consumeNow(sessionId, reply, scope));
    this.inflight.set(sessionId, run);
    try {
      return await run;
    } finally {
      if (this.inflight.get(sessionId) === run) this.inflight.delete(sessionId);
    }
  }

  private async consumeNow(sessionId: string, reply: string, scope?: SessionScope): Promise<SinkResult> {
    const result: SinkResult = { outcomes: [], skipped: 0 };
    const seen = this.seenFor(sessionId);
    const replyKey = sha1(reply);
    // The whole reply's blocks not saved (no engine yet, or the engine failing under them): the model
    // is told once — both deliveries of the reply come here — so the words are not lost in a log line.
    const unsaved = (why: string): SinkResult => {
      const key = `${replyKey}:unsaved`;
      if (seen.errors.has(key)) return { outcomes: [], skipped: 1 };
      seen.errors.add(key);
      const outcome: NoteOutcome = { ok: false, message: `这次回复里的记忆块没有保存:${why}。请稍后用 engram_write 再写一次` };
      this.pendingNotices.set(sessionId, [...(this.pendingNotices.get(sessionId) ?? []), outcome]);
      return { outcomes: [outcome], skipped: 0 };
    };
    const engine = this.engine();
    if (!engine) {
      this.log.warn(`note blocks session=${sessionId}: engine not ready, reply not saved`);
      return unsaved('记忆引擎还没有就绪');
    }
    let applied: Awaited<ReturnType<Engine['applyNoteBlocks']>>;
    try {
      applied =
        scope && scope.workspace !== null
          ? await applyScopedNoteBlocks(engine, reply, seen.applied, { workspace: scope.workspace, sessionId: scope.sessionId ?? sessionId, origin: 'agent' })
          : await engine.applyNoteBlocks(reply, seen.applied);
    } catch (error) {
      this.log.warn(`note blocks session=${sessionId}: not saved: ${errorText(error)}`);
      return unsaved(errorText(error));
    }
    for (const error of applied.errors) {
      const key = `${replyKey}:${error.index}`;
      if (seen.errors.has(key)) {
        result.skipped++;
        continue;
      }
      seen.errors.add(key);
      result.outcomes.push({ ok: false, message: `第 ${error.index + 1} 个语义块格式有误:${error.message}` });
    }
    for (const block of applied.results) {
      if (block.duplicate) {
        result.skipped++;
        continue;
      }
      if (block.ok) {
        this.log.info(`note block session=${sessionId}: ${block.command === 'create' ? 'created' : 'updated'} ${block.path ?? block.docId ?? ''}`);
        result.outcomes.push({ ok: true, message: `${block.command === 'create' ? '已保存' : '已更新'} ${block.path ?? ''}` });
        continue;
      }
      const code = block.code ?? 'failed';
      this.log.warn(`note block session=${sessionId}: ${block.command} failed: [${code}] ${block.message ?? ''}`);
      const hint = HINTS[code];
      result.outcomes.push({
        ok: false,
        message: `${block.command === 'create' ? '新建' : '更新'}失败:[${code}] ${block.message ?? ''}${hint ? `。${hint}` : ''}`,
      });
    }
    const failures = result.outcomes.filter((o) => !o.ok);
    if (failures.length > 0) this.pendingNotices.set(sessionId, [...(this.pendingNotices.get(sessionId) ?? []), ...failures]);
    return result;
  }

  /** Failures waiting to be told to the model; taking them clears them. */
  takeNotices(sessionId: string): NoteOutcome[] {
    const pending = this.pendingNotices.get(sessionId) ?? [];
    this.pendingNotices.delete(sessionId);
    return pending;
  }
}

/**
 * Feeds replies to the sink from both deliveries: the recorded `assistant/message` (fire-and-forget
 * `session/event`) and `agent/turn-stopping` (the turn's last reply). The sink's claims make the
 * second one a no-op.
 */
export function listenForNoteBlocks(ctx: HostContext, sink: NoteSink, log: HostLogger, scopeOf?: (session: HostSession) => Promise<SessionScope>): void {
  const consume = async (session: HostSession, text: string, via: string) => {
    try {
      const scope = scopeOf ? await scopeOf(session) : undefined;
      const outcome = await sink.consume(session.header.id, text, scope);
      if (outcome.skipped > 0) log.debug(`note blocks via ${via}: ${outcome.skipped} already handled`);
    } catch (error) {
      log.warn(`note blocks via ${via} failed: ${errorText(error)}`);
    }
  };
  ctx.on('session/event', (session: HostSession, event: { type?: string; data?: any }) => {
    try {
      if (event?.type !== 'assistant/message' || !session?.header || isSubagent(session)) return;
      const text = textOfContent(event.data?.message?.content);
      if (!text.includes('DailyNote')) return;
      return consume(session, text, 'assistant/message');
    } catch (error) {
      log.warn(`session/event: ${errorText(error)}`);
    }
  });
  ctx.on('agent/turn-stopping', async (payload: { agent?: { session?: HostSession } }) => {
    try {
      const session = payload?.agent?.session;
      if (!session?.header || isSubagent(session)) return;
      const events = sessionEvents(session);
      for (let i = events.length - 1; i >= 0; i--) {
        const event = events[i];
        // One malformed event must not hide the reply that precedes it.
        if (!event || typeof event !== 'object') continue;
        if (event.type === 'turn/start') break;
        if (event.type !== 'assistant/message') continue;
        const text = textOfContent(event.data?.message?.content);
        if (text.includes('DailyNote')) await consume(session, text, 'turn-stopping');
        break;
      }
    } catch (error) {
      log.warn(`turn-stopping: ${errorText(error)}`);
    }
  });
}
