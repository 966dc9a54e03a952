// Tier 2: recall. One state machine per session (the prompt registrations are shared by every
// session, so the frozen result cannot live on them). A recall runs only when a trigger says so;
// every other step reuses the frozen result. Two ways to show it, chosen per turn from config:
//   message (default) — a user-role message appended to this step's decision.messages, deduped
//                        against what the history already shows;
//   context            — the text of a placeholder context, filled in the assemble waterfall.
import { pausedForMissingDiary, renderRecallBlock, shownRuleOptionsOf, splitShownHits, type Engine, type EngramConfig, type RecallResult, type ShownRuleOptions } from '@engram/engine';
import type { HostEvent, HostLogger, HostSession, UserMessage } from '../core/host-types.ts';
import { emptyFreezeState, pickTrigger, type FreezeState, type Trigger } from './freeze.ts';
import { blockKey, itemKey, normaliseMaxMessages, shownRecall, type ItemIdentity } from './dedupe.ts';
import { errorText, formatRecallLog } from '../core/log.ts';
import { pluginMessage } from '../sessions/messages.ts';
import { escapePromptVariables } from '../core/texts.ts';
import { personMessageBefore, sessionEvents, visibleOwnMessages, type PersonMessage } from '../sessions/view.ts';
import { followUpQuery, isFollowUp } from './follow-up.ts';

/** The schema's default item prefix: blocks written with it can be parsed back after a config change. */
export const DEFAULT_ITEM_PREFIX = '[{n}] {date} · {title}';
export const RECALL_CONTEXT_NAME = 'engram:recall';
const MAX_SESSIONS = 256;

export interface RecallItem extends ItemIdentity {
  docId: string;
  text: string;
  /** Cut short by the character budget: shown, but not counted as shown (its whole text never was). */
  truncated: boolean;
  /** The query words it matched (what the already-shown rule compares). */
  matched: { token: string }[];
}

export interface FrozenView {
  id: number;
  trigger: Trigger;
  items: RecallItem[];
  /** How the already-shown rule reads this recall (a time-channel answer, the distinctive words). */
  shownRule: ShownRuleOptions;
}

interface SessionRecall {
  freeze: FreezeState;
  view: FrozenView | null;
  /** The view message mode last dealt with; a view is offered as a message once. */
  deliveredViewId: number;
  warnedCap: Set<string>;
  queue: Promise<unknown>;
}

export interface RecallChannelDeps {
  engine(): Engine | null;
  log: HostLogger;
  /** The session's workspace: recall sees it and global only. Absent = unscoped. */
  workspace?(session: HostSession): Promise<string | null>;
  /** Why recall must be lexical now (the model still loading at plugin start), or null. */
  lexicalReason?(): string | null;
}

export function itemsOf(result: RecallResult): RecallItem[] {
  const truncated = result.explain.maxChars.truncatedItems > 0;
  return result.hits.map((hit, i) => ({
    docId: hit.docId,
    date: hit.date,
    title: hit.title,
    text: hit.text,
    truncated: truncated && i === result.hits.length - 1,
    matched: hit.matched.map((m) => ({ token: m.token })),
  }));
}

export class RecallChannel {
  private readonly sessions = new Map<string, SessionRecall>();
  private views = 0;

  constructor(private readonly deps: RecallChannelDeps) {}

  private stateOf(sessionId: string): SessionRecall {
    let state = this.sessions.get(sessionId);
    if (state) {
      // Keep recently used sessions at the end so the oldest one is evicted first.
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, state);
      return state;
    }
    state = { freeze: emptyFreezeState(), view: null, deliveredViewId: 0, warnedCap: new Set(), queue: Promise.resolve() };
    this.sessions.set(sessionId, state);
    while (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return state;
  }

  /** For status and tests: the frozen view of a session. */
  viewOf(sessionId: string): FrozenView | null {
    return this.sessions.get(sessionId)?.view ?? null;
  }

  /**
   * Recalls if a trigger is due. `live` is the person's message from the pre-step payload: at step 1
   * it is not in the events yet. Calls for one session run one after another.
   */
  refresh(session: HostSession, live: PersonMessage | null, mode: string, options: { phaseOnly?: boolean } = {}): Promise<void> {
    const state = this.stateOf(session.header.id);
    const run = state.queue.then(() => this.refreshNow(session, state, live, mode, options.phaseOnly === true));
    state.queue = run.catch(() => undefined);
    return run;
  }

  private async refreshNow(session: HostSession, state: SessionRecall, live: PersonMessage | null, mode: string, phaseOnly: boolean): Promise<void> {
    const engine = this.deps.engine();
    if (!engine) return;
    const config = engine.config;
    if (!config.inject.enabled) return;
    const decision = pickTrigger({ events: sessionEvents(session), live, state: state.freeze, options: config.freeze, phaseOnly });
    // Consumed before the recall: a failing or empty recall must not be retried on every step.
    state.freeze = decision.state;
    const trigger = decision.trigger;
    if (!trigger) return;
    const started = performance.now();
    let result: RecallResult;
    let lexical: string | null = null;
    try {
      const workspace = this.deps.workspace ? await this.deps.workspace(session) : null;
      lexical = this.deps.lexicalReason?.() ?? null;
      const options = lexical ? { workspace, only: 'lexical' as const } : { workspace };
      result = await engine.recall(trigger.query, options);
      // A follow-up that recalls nothing is asked again with the person's previous message, whatever
      // silenced it: too little said, no note it reaches holding enough of it (every candidate), a
      // question the query gate doubts, or words no note has — its subject is in that message.
      if (result.hits.length === 0 && trigger.kind !== 'phase-change' && isFollowUp(trigger.query)) {
        const silenced = result.explain.gate.silencedBy?.rule ?? 'no candidates';
        const previous = personMessageBefore(sessionEvents(session), trigger.userKey);
        if (previous) {
          // Two messages' words: the query gates, which read how much of one question a note repeats, stand aside.
          result = await engine.recall(followUpQuery(previous.text, trigger.query), { ...options, queryGate: false });
          this.deps.log.info(`recall ${trigger.kind} session=${session.header.id}: a follow-up (${silenced}), asked again with the previous message`);
        }
      }
    } catch (error) {
      this.deps.log.warn(`recall ${trigger.kind} session=${session.header.id} user=${trigger.userKey ?? '-'} failed: ${errorText(error)}`);
      return;
    }
    this.deps.log.info(formatRecallLog({ sessionId: session.header.id, trigger, result, mode, ms: performance.now() - started, lexical }));
    // Zero hits never freeze: an empty view would silence the session until a restart. But with the
    // diary folder gone, what was recalled from it before is not shown again either (context mode
    // renders the frozen view on every step): the files it came from are not there.
    if (result.hits.length === 0) {
      if (pausedForMissingDiary(result)) state.view = null;
      return;
    }
    state.freeze = { ...state.freeze, frozen: true };
    state.view = { id: ++this.views, trigger, items: itemsOf(result), shownRule: shownRuleOptionsOf(result) };
  }

  /** Context mode: the frozen view rendered with the current texts ('' before the first hit). */
  contextText(sessionId: string, config: EngramConfig): string {
    const view = this.sessions.get(sessionId)?.view;
    if (!view || !config.inject.enabled) return '';
    return escapePromptVariables(renderRecallBlock(view.items, config.inject, { reason: view.trigger.kind }));
  }

  /**
   * Message mode: the recall message for this step, or null. A view is offered once; items whose
   * date + title the history already shows are dropped, an identical block is dropped, and the
   * block count is capped by inject.maxMessages.
   */
  messageFor(session: HostSession, events: readonly HostEvent[], config: EngramConfig): UserMessage | null {
    const state = this.stateOf(session.header.id);
    const view = state.view;
    if (!view || state.deliveredViewId === view.id || !config.inject.enabled) return null;
    state.deliveredViewId = view.id;
    const sessionId = session.header.id;

    const shown = shownRecall(visibleOwnMessages(events, 'recall'), [config.inject.itemPrefix, DEFAULT_ITEM_PREFIX]);
    // Leaving out what the history shows never promotes a hit that only came in beside it.
    const split = splitShownHits(view.items, (item) => shown.itemKeys.has(itemKey(item)), view.shownRule);
    // A passage shown cut short beside them before was injected in that place already: it comes back whole.
    const completes = (item: RecallItem) => shown.partKeys.has(itemKey(item));
    const fresh = view.items.filter((item) => split.fresh.includes(item) || (completes(item) && split.companions.some((c) => c.hit === item)));
    split.companions = split.companions.filter((c) => !completes(c.hit));
    for (const { hit, reason } of split.companions) {
      this.deps.log.info(`recall ${view.trigger.kind} session=${sessionId}: left out ${itemKey(hit).replace('\u0001', ' ')}: ${reason}`);
    }
    if (fresh.length === 0) {
      this.deps.log.info(
        `recall ${view.trigger.kind} session=${sessionId}: ${split.shown.length} of ${view.items.length} item(s) already in the history${split.companions.length > 0 ? `, ${split.companions.length} added nothing to them` : ''}, nothing injected`,
      );
      return null;
    }
    const text = renderRecallBlock(fresh, config.inject, { reason: view.trigger.kind });
    const key = blockKey(text);
    if (shown.blockKeys.has(key)) {
      this.deps.log.info(`recall ${view.trigger.kind} session=${sessionId}: identical block already in the history, nothing injected`);
      return null;
    }
    const cap = normaliseMaxMessages(config.inject.maxMessages, 0);
    if (shown.blocks >= cap) {
      if (!state.warnedCap.has(key)) {
        state.warnedCap.add(key);
        this.deps.log.warn(`recall session=${sessionId}: inject.maxMessages=${config.inject.maxMessages} reached (${shown.blocks} recall messages in the history), block not injected`);
      }
      return null;
    }
    const dropped = split.shown.length;
    const items = fresh.filter((i) => !i.truncated).map(({ date, title }) => ({ date, title }));
    this.deps.log.info(
      `recall ${view.trigger.kind} session=${sessionId}: injected ${fresh.length} item(s) as a message${dropped > 0 ? `, ${dropped} already shown` : ''}${split.companions.length > 0 ? `, ${split.companions.length} left out beside them` : ''} [${fresh.map((i) => itemKey(i).replace('\u0001', ' ')).join(' | ')}]`,
    );
    return pluginMessage('recall', text, { items, trigger: view.trigger.kind });
  }
}
