// A session: the append-only event log, the model-visible history derived from it, and the agent
// handle plugins receive. The log is the single source of what the model sees ("model-visible
// means logged"): requests are derived from it, never assembled on the side.
//
// Plugins read events through `snapshotEvents()` (newer hosts) or the `events` getter (rc.8); a
// host option decides which one exists, so a plugin that does not feature-detect fails here.
import type { EventBus } from './events.ts';
import { createInboxSentinel, InboxViolationError, WorkingInbox } from './inbox.ts';
import { deepFreeze, HostContractError, normaliseUserMessage, textOf } from './messages.ts';
import type {
  ContentBlock,
  EventEnvelope,
  InboxViolation,
  RecordedRequest,
  RequestMessage,
  ScriptEntry,
  SessionHeader,
  ToolCallBlock,
  UserMessage,
} from './types.ts';

export type SessionEventsApi = 'snapshot' | 'events' | 'both';
export type InboxMode = 'sentinel' | 'working';

export interface TurnOptions {
  /** Web clients add an rpcId to the person's message source. */
  rpcId?: string;
}

export interface TurnResult {
  turn: number;
  status: 'completed' | 'blocked' | 'error';
  steps: number;
  requests: RecordedRequest[];
  /** The events appended during this turn, in order. */
  events: EventEnvelope[];
  error?: unknown;
}

export interface CompactOptions {
  summary: string | ContentBlock[];
  /** Seqs (inclusive) of the history to fold; defaults to the whole current history. */
  shadowedRange?: { start: number; end: number };
  provider?: string;
  model?: string;
  /** Deliver each compaction event twice through `session/event`, as a reconnecting host may. */
  duplicateDelivery?: boolean;
}

export interface CompactResult {
  compactionId: string;
  shadowedSeqs: number[];
  events: EventEnvelope[];
}

export interface SessionCore {
  readonly bus: EventBus;
  readonly sessionEvents: SessionEventsApi;
  readonly inbox: InboxMode;
  readonly inboxViolations: InboxViolation[];
  readonly provider: string;
  readonly model: string;
  now(): number;
  nextId(prefix: string): string;
  runTurn(session: SimSession, text: string, script: ScriptEntry[], options: TurnOptions): Promise<TurnResult>;
}

/** What plugins receive as `agent`: the session and an inbox they must never touch. */
export interface Agent {
  id: string;
  session: SimSession;
  inbox: any;
  inject(message: unknown): void;
  steer(message: unknown): void;
  followup(message: unknown): void;
}

export const SNAPSHOT_PLUGIN = 'system-prompt';

function isSnapshotMessage(event: EventEnvelope): boolean {
  const source = event.data?.source;
  return event.type === 'user/message' && source?.kind === 'plugin' && source?.plugin === SNAPSHOT_PLUGIN && source?.form === 'snapshot';
}

function estimateTokens(text: string): number {
  // CJK characters are roughly a token each, other text roughly four characters a token.
  let cjk = 0;
  for (const ch of text) if (/[\u3400-\u9fff\uf900-\ufaff]/.test(ch)) cjk++;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

export class SimSession {
  readonly id: string;
  readonly header: SessionHeader;
  readonly agent: Agent;
  /** Simulator side: every request the host sent to the model for this session. */
  readonly requests: RecordedRequest[] = [];
  /** The working inbox when the host runs in 'working' inbox mode. */
  readonly workingInbox: WorkingInbox | undefined;
  turnCount = 0;
  running = false;

  // Host API; which of the two exists depends on the host variant (defined in the constructor).
  declare readonly events?: readonly EventEnvelope[];
  declare snapshotEvents?: () => readonly EventEnvelope[];

  private readonly log: EventEnvelope[] = [];
  /** Seqs of the events the model sees, in order. */
  private surface: number[] = [];
  private readonly messageIds = new Set<string>();
  private lastHeaderJson: string | undefined;
  private lastRouteJson: string | undefined;

  constructor(private readonly core: SessionCore, header: SessionHeader) {
    this.id = header.id;
    this.header = deepFreeze({ ...header });
    const snapshot = () => Object.freeze([...this.log]);
    if (core.sessionEvents !== 'events') Object.defineProperty(this, 'snapshotEvents', { value: snapshot, enumerable: false });
    if (core.sessionEvents !== 'snapshot') Object.defineProperty(this, 'events', { get: snapshot, enumerable: false });

    const refuse = (member: string) => () => {
      core.inboxViolations.push({ member, op: 'call', sessionId: this.id, stack: new Error().stack });
      throw new InboxViolationError(member);
    };
    if (core.inbox === 'working') {
      const inbox = new WorkingInbox(
        (message) => this.normaliseMessage(message, 'agent.inbox'),
        (record) => this.appendEvent('agent/inbox/spliced', record),
      );
      this.workingInbox = inbox;
      this.agent = {
        id: this.id,
        session: this,
        inbox,
        inject: (message) => inbox.append(message, 'next-step'),
        steer: (message) => inbox.append(message, 'next-step'),
        followup: (message) => inbox.append(message, 'next-turn'),
      };
    } else {
      this.workingInbox = undefined;
      this.agent = {
        id: this.id,
        session: this,
        inbox: createInboxSentinel(this.id, core.inboxViolations),
        // These all go through the inbox on the host, so they are the same mistake.
        inject: refuse('inject (agent.inject)'),
        steer: refuse('steer (agent.steer)'),
        followup: refuse('followup (agent.followup)'),
      };
    }
  }

  /** Simulator side: the whole log regardless of which host API is exposed. */
  recordedEvents(): readonly EventEnvelope[] {
    return Object.freeze([...this.log]);
  }

  /** Simulator side: the events the model currently sees, in order. */
  keptHistory(): EventEnvelope[] {
    return this.surface.map((seq) => this.log[seq]!);
  }

  /** Appends an event (frozen), updates the model-visible history and emits `session/event`. */
  appendEvent(type: string, data: unknown, extras: Pick<EventEnvelope, 'surfaceOp' | 'sourceEventSeqs'> = {}): EventEnvelope {
    const envelope: EventEnvelope = deepFreeze({ type, seq: this.log.length, time: this.core.now(), data: structuredClone(data), ...structuredClone(extras) });
    this.log.push(envelope);
    this.updateSurface(envelope);
    this.core.bus.emit('session/event', [this, envelope]);
    return envelope;
  }

  /**
   * Loads the log a previous host run recorded, as a host does with a session's journal when it
   * starts: the events come back as they were (same seqs), the model-visible history is rebuilt, and
   * nothing is emitted (`session/event` is for new events). Only on a session with no events yet.
   */
  restore(events: readonly EventEnvelope[]): void {
    if (this.log.length > 0) throw new Error(`session "${this.id}" already has events: restore() loads a journal into a new session`);
    for (const event of events) {
      if (event.seq !== this.log.length) throw new RangeError(`restore: event seq ${event.seq} where ${this.log.length} was expected`);
      const envelope = deepFreeze(structuredClone(event));
      this.log.push(envelope);
      this.updateSurface(envelope);
      if (envelope.type === 'user/message' && typeof envelope.data?.id === 'string') this.messageIds.add(envelope.data.id);
      if (typeof envelope.data?.turn === 'number') this.turnCount = Math.max(this.turnCount, envelope.data.turn);
    }
  }

  /** Emits `session/event` again for an event already in the log (duplicate delivery). */
  redeliver(target: number | EventEnvelope): void {
    const seq = typeof target === 'number' ? target : target.seq;
    const envelope = this.log[seq];
    if (!envelope) throw new RangeError(`no event with seq ${seq}`);
    this.core.bus.emit('session/event', [this, envelope]);
  }

  /** Validates and registers a message id; a reused id is a contract error (ids identify one occurrence). */
  normaliseMessage(raw: unknown, where: string): UserMessage {
    return normaliseUserMessage(raw, where, () => this.core.nextId('msg'));
  }

  recordUserMessage(message: UserMessage): EventEnvelope {
    if (this.messageIds.has(message.id)) {
      throw new HostContractError(`message id "${message.id}" is already in this session: build a fresh message for every injection`);
    }
    this.messageIds.add(message.id);
    return this.appendEvent('user/message', message);
  }

  /** The text of the runtime-context snapshot the model currently sees, if any. */
  visibleSnapshotText(): string | undefined {
    for (let i = this.surface.length - 1; i >= 0; i--) {
      const event = this.log[this.surface[i]!]!;
      if (isSnapshotMessage(event)) return textOf(event.data.content);
    }
    return undefined;
  }

  /** Records `request/header` / `request/context` only when they change, as the host logs them. */
  recordRequestRecords(header: unknown, route: { provider: string; model: string }): void {
    const headerJson = JSON.stringify(header);
    if (headerJson !== this.lastHeaderJson) {
      this.appendEvent('request/header', { header, reason: this.lastHeaderJson === undefined ? 'initial' : 'change' });
      this.lastHeaderJson = headerJson;
    }
    const routeJson = JSON.stringify(route);
    if (routeJson !== this.lastRouteJson) {
      this.appendEvent('request/context', route);
      this.lastRouteJson = routeJson;
    }
  }

  /** The history as the model receives it. */
  requestMessages(): RequestMessage[] {
    return this.keptHistory().map((event): RequestMessage => {
      if (event.type === 'assistant/message') {
        const content = event.data.message.content as ContentBlock[];
        const calls = content.filter((b): b is ToolCallBlock => b.type === 'tool-call');
        return {
          role: 'assistant',
          content: textOf(content),
          ...(calls.length > 0 ? { toolCalls: calls.map(({ callId, name, arguments: args }) => ({ callId, name, arguments: args })) } : {}),
        };
      }
      if (event.type === 'tool/result') {
        const message = event.data.message;
        return { role: 'tool', content: textOf(message.content), callId: message.callId, name: message.name };
      }
      return { role: 'user', content: textOf(event.data.content), source: event.data.source };
    });
  }

  /** Runs one user turn through the host's loop; `script` says what the model does at each step. */
  /** The non-block content of a tool result that broke this session (every later turn fails), if any. */
  brokenBy: unknown = undefined;

  userTurn(text: string, script: ScriptEntry[] = [], options: TurnOptions = {}): Promise<TurnResult> {
    return this.core.runTurn(this, text, script, options);
  }

  /**
   * Folds part of the history into a summary, as the host's compaction does: compaction/start,
   * compaction/summary, compaction/end, then the replacing user/message (source kind 'model').
   */
  compact(options: CompactOptions): CompactResult {
    const summary: ContentBlock[] = typeof options.summary === 'string' ? [{ type: 'text', text: options.summary }] : options.summary;
    const first = this.surface[0];
    const last = this.surface[this.surface.length - 1];
    const range = options.shadowedRange ?? (first !== undefined && last !== undefined ? { start: first, end: last } : undefined);
    const shadowedSeqs = range ? this.surface.filter((seq) => seq >= range.start && seq <= range.end) : [];
    if (!range || shadowedSeqs.length === 0) throw new RangeError('compact: nothing in the model-visible history falls in the shadowed range');
    const provider = options.provider ?? this.core.provider;
    const model = options.model ?? this.core.model;
    const compactionId = this.core.nextId('cmp');
    const shadowedTokenCount = shadowedSeqs.reduce((sum, seq) => {
      const data = this.log[seq]!.data;
      return sum + estimateTokens(textOf(data.content ?? data.message?.content));
    }, 0);
    const events: EventEnvelope[] = [];
    events.push(this.appendEvent('compaction/start', { compactionId, turn: this.turnCount }));
    const summaryEvent = this.appendEvent('compaction/summary', {
      compactionId,
      summary,
      shadowedRange: { start: range.start, end: range.end },
      shadowedSeqs,
      shadowedTokenCount,
      provider,
      model,
    });
    events.push(summaryEvent);
    events.push(this.appendEvent('compaction/end', { compactionId, turn: this.turnCount }));
    const replacement = this.normaliseMessage({ role: 'user', content: summary, source: { kind: 'model', provider, model } }, 'compaction');
    this.messageIds.add(replacement.id);
    events.push(
      this.appendEvent('user/message', replacement, {
        surfaceOp: { op: 'replace', start: range.start, end: range.end },
        sourceEventSeqs: [summaryEvent.seq, ...shadowedSeqs],
      }),
    );
    if (options.duplicateDelivery) for (const event of events) this.redeliver(event);
    return { compactionId, shadowedSeqs, events };
  }

  private updateSurface(event: EventEnvelope): void {
    if (event.surfaceOp?.op === 'replace') {
      const { start, end } = event.surfaceOp;
      const at = this.surface.findIndex((seq) => seq >= start && seq <= end);
      const kept = this.surface.filter((seq) => seq < start || seq > end);
      const insertAt = at < 0 ? kept.length : kept.filter((seq) => seq < start).length;
      kept.splice(insertAt, 0, event.seq);
      this.surface = kept;
      return;
    }
    if (event.type === 'user/message' || event.type === 'tool/result') this.surface.push(event.seq);
    // Empty assistant content stays out of the derived history.
    else if (event.type === 'assistant/message' && (event.data.message?.content?.length ?? 0) > 0) this.surface.push(event.seq);
  }
}
