// Cross-compaction memory in the host: stores what a compaction folds away and hands the relevant
// pieces back. Three moments:
//   compaction/summary (session/event) — ingest: L1 summary sections, L2 dialogue and read-type tool
//     results, rules book and archive (the engine's CompactionMemory; duplicate deliveries are
//     no-ops there). A pre-step also ingests any summary the listener missed (plugin restarted).
//   first step after a compaction — the window's overview and minor rules, once, as messages whose
//     text is fixed for the whole window (so the prompt prefix stays cacheable);
//   each question of the person — stored blocks scored locally, injected only above the threshold.
// Everything goes into decision.messages (never the inbox); any failure logs and injects nothing.
import type { AssistRoute, CompactionMemory, EngramConfig, RecheckResult, SessionScope } from '@engram/engine';
import type { HostContext, HostEvent, HostLogger, HostSession, PreStepPayload, UserMessage } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';
import { compactionMessage, scopeOf, visibleCompactionSources } from './messages.ts';
import { verbatimExcerpt } from './excerpt.ts';
import { mainRouteOf } from './llm.ts';
import { isSubagent, lastPersonMessage, lastRecordedPersonMessage, sessionEvents } from '../sessions/view.ts';

const MAX_SESSIONS = 256;
const MAX_CONSUMED = 256;

export interface CompactionChannelDeps {
  memory(): CompactionMemory | null;
  config(): EngramConfig | null;
  log: HostLogger;
}

interface SessionState {
  /** Seqs of compaction/summary events already handed to the memory. */
  handled: Set<number>;
  /** Person messages already answered. */
  consumed: string[];
}

export interface RecheckOutcome {
  ok: boolean;
  /** When not ok: unknown-session | no-question | disabled | failed. */
  error?: string;
  query?: string;
  result?: RecheckResult;
  /** 打开原文: the found passages verbatim, as Markdown ('' when nothing was found). */
  excerpt?: string;
}

export class CompactionChannel {
  private readonly sessions = new Map<string, SessionState>();
  /** Compacted sessions seen at a pre-step: what an on-demand recheck needs (the scope and the last question). */
  private readonly seen = new Map<string, { scope: SessionScope; question: string; mainRoute: AssistRoute | null }>();

  constructor(private readonly deps: CompactionChannelDeps) {}

  private stateOf(sessionId: string): SessionState {
    let state = this.sessions.get(sessionId);
    if (!state) {
      state = { handled: new Set(), consumed: [] };
      this.sessions.set(sessionId, state);
      while (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    }
    return state;
  }

  private enabled(): { memory: CompactionMemory; config: EngramConfig } | null {
    const memory = this.deps.memory();
    const config = this.deps.config();
    return memory && config && config.compaction.enabled ? { memory, config } : null;
  }

  /** Ingests one compaction/summary event. Never throws. */
  async ingest(session: HostSession, event: HostEvent, via: string): Promise<void> {
    const ready = this.enabled();
    if (!ready || isSubagent(session)) return;
    const state = this.stateOf(session.header.id);
    try {
      const data = event.data ?? {};
      const events = sessionEvents(session);
      const report = await ready.memory.ingest({
        scope: scopeOf(session),
        compactionId: typeof data.compactionId === 'string' ? data.compactionId : null,
        summary: data.summary,
        shadowedSeqs: Array.isArray(data.shadowedSeqs) ? data.shadowedSeqs : null,
        shadowedRange: data.shadowedRange ?? null,
        events,
        mainRoute: mainRouteOf(events),
      });
      state.handled.add(event.seq);
      // Look-again works from the compaction on, even when the host restarts before the next step.
      if (!this.seen.has(session.header.id)) await this.remember(ready.memory, scopeOf(session), lastRecordedPersonMessage(events)?.text ?? '', mainRouteOf(events));
      if (report.status === 'duplicate') this.deps.log.debug(`compaction ${report.dedupeKey} via ${via}: already stored`);
      for (const error of report.errors) this.deps.log.warn(`compaction ${report.dedupeKey}: ${error}`);
    } catch (error) {
      // Not marked handled: the next pre-step tries again (nothing was recorded for it).
      this.deps.log.warn(`compaction ingest via ${via} failed (session ${session.header.id}): ${errorText(error)}`);
    }
  }

  /** Summaries in the session's log that were never handed over (a listener missed them). */
  private async catchUp(session: HostSession, events: readonly HostEvent[]): Promise<void> {
    const state = this.stateOf(session.header.id);
    for (const event of events) {
      if (event?.type === 'compaction/summary' && !state.handled.has(event.seq)) await this.ingest(session, event, 'catch-up');
    }
  }

  /** The compaction messages for this step (possibly none). Never throws. */
  async messagesFor(session: HostSession, payload: PreStepPayload): Promise<UserMessage[]> {
    const ready = this.enabled();
    if (!ready || isSubagent(session)) return [];
    const { memory, config } = ready;
    const cfg = config.compaction;
    const sessionId = session.header.id;
    const scope = scopeOf(session);
    const out: UserMessage[] = [];
    try {
      const events = sessionEvents(session);
      await this.catchUp(session, events);
      await memory.idle(scope);
      const window = await memory.windowTexts(scope);
      if (!window) return out;

      const once = (form: 'compaction-overview' | 'compaction-rules', text: string) => {
        if (text === '') return;
        if (visibleCompactionSources(events, form).some((s) => s.window === window.key)) return;
        out.push(compactionMessage(form, text, { window: window.key }));
        this.deps.log.info(`compaction ${form.slice('compaction-'.length)} session=${sessionId} window=${window.key}: injected`);
      };
      if (cfg.overview) once('compaction-overview', window.overview);
      if (cfg.rules.enabled && cfg.rules.inject) once('compaction-rules', window.rules);

      const person = lastPersonMessage(payload.messages ?? []);
      const state = this.stateOf(sessionId);
      await this.remember(memory, scope, person?.text ?? '', mainRouteOf(events));
      if (cfg.inject && person && person.text !== '' && !state.consumed.includes(person.key)) {
        state.consumed.push(person.key);
        if (state.consumed.length > MAX_CONSUMED) state.consumed.shift();
        const answer = await memory.answer(scope, person.text);
        const dropped = answer.dropped.map((d) => d.reason).join(',');
        this.deps.log.info(
          `compaction recall session=${sessionId} user=${person.key} top=${answer.topScore.toFixed(3)} items=${answer.items.length} tokens=${answer.tokens}${answer.reason ? ` reason=${answer.reason}` : ''}${dropped ? ` dropped=[${dropped}]` : ''}`,
        );
        if (answer.text !== '') {
          out.push(compactionMessage('compaction-recall', answer.text, { window: window.key, fingerprints: answer.items.map((i) => i.fingerprint) }));
        }
      }
    } catch (error) {
      this.deps.log.warn(`compaction: nothing injected this step (session ${sessionId}): ${errorText(error)}`);
    }
    return out;
  }

  /**
   * What "look again" needs of a compacted session, kept in memory and on disk (a host restart
   * loses the first). A step without a person's message (the steps after a tool call) keeps the
   * question of the step that had one.
   */
  private async remember(memory: CompactionMemory, scope: SessionScope, personText: string, mainRoute: AssistRoute | null): Promise<void> {
    const sessionId = scope.sessionId;
    const before = this.seen.get(sessionId) ?? (await memory.lookAgainOf(sessionId).catch(() => null));
    const question = personText || before?.question || '';
    const changed = !before || before.question !== question || JSON.stringify(before.mainRoute) !== JSON.stringify(mainRoute);
    this.seen.delete(sessionId);
    this.seen.set(sessionId, { scope, question, mainRoute });
    while (this.seen.size > MAX_SESSIONS) this.seen.delete(this.seen.keys().next().value!);
    if (!changed) return;
    try {
      await memory.rememberQuestion(scope, question, mainRoute);
    } catch (error) {
      this.deps.log.warn(`compaction: look-again state not saved (session ${sessionId}): ${errorText(error)}`);
    }
  }

  /** The session as "look again" knows it: seen at a step since the start, else stored by an earlier run. */
  private async lookAgainTarget(memory: CompactionMemory, sessionId: string): Promise<{ scope: SessionScope; question: string; mainRoute: AssistRoute | null } | null> {
    return this.seen.get(sessionId) ?? (await memory.lookAgainOf(sessionId));
  }

  /** Whether "look again" has anything to search in this session (it was compacted). Never throws. */
  async available(sessionId: string): Promise<boolean> {
    const ready = this.enabled();
    if (!ready) return false;
    try {
      const target = await this.lookAgainTarget(ready.memory, sessionId);
      return target !== null && (await ready.memory.windowTexts(target.scope)) !== null;
    } catch (error) {
      this.deps.log.warn(`compaction look-again availability (session ${sessionId}): ${errorText(error)}`);
      return false;
    }
  }

  /**
   * "Look again" for a compacted session: the engine's recheck (local search, optional rewrite and
   * strong-relevance verdict). What it finds is injected with the session's next question; the
   * passages it found come back verbatim for 打开原文.
   */
  async recheck(sessionId: string, query?: string): Promise<RecheckOutcome> {
    const ready = this.enabled();
    if (!ready) return { ok: false, error: 'disabled' };
    let target: Awaited<ReturnType<CompactionChannel['lookAgainTarget']>>;
    try {
      target = await this.lookAgainTarget(ready.memory, sessionId);
    } catch (error) {
      this.deps.log.warn(`compaction recheck session=${sessionId} failed: ${errorText(error)}`);
      return { ok: false, error: 'failed' };
    }
    if (!target) return { ok: false, error: 'unknown-session' };
    const question = (query ?? '').trim() || target.question;
    if (question === '') return { ok: false, error: 'no-question' };
    try {
      const result = await ready.memory.recheck(target.scope, question, target.mainRoute);
      this.deps.log.info(`compaction recheck session=${sessionId}: found=${result.found} rewrote=${result.rewrote} skippedRewrite=${result.skippedRewrite} verdict=${result.verdict ?? '-'}`);
      const excerpt = result.found ? verbatimExcerpt(result.blocks.map((b) => b.id), await ready.memory.listBlocks(target.scope)) : '';
      return { ok: true, query: question, result, excerpt };
    } catch (error) {
      this.deps.log.warn(`compaction recheck session=${sessionId} failed: ${errorText(error)}`);
      return { ok: false, error: 'failed' };
    }
  }
}

/** Hands compaction/summary events to the channel (fire-and-forget, like every session/event). */
export function listenForCompactions(ctx: HostContext, channel: CompactionChannel, log: HostLogger): void {
  ctx.on('session/event', (session: HostSession, event: HostEvent) => {
    try {
      if (event?.type !== 'compaction/summary' || !session?.header || isSubagent(session)) return;
      return channel.ingest(session, event, 'session/event');
    } catch (error) {
      log.warn(`session/event compaction: ${errorText(error)}`);
    }
  });
}
