// Rows of a session log → the conversation as turns: what the person said, the assistant's final
// visible answer, its reasoning, the tools it used, and (when asked) the turn's messages as stored.
// Pure and tolerant: rows of unknown types, missing fields and a lost header are expected in real
// logs (older hosts, damaged frames) and never throw.
//
// The host's event shapes: packages/core/session/src/types.ts (SessionEventMap: user/message,
// assistant/message { message: AssistantMessage }, tool/call, tool/result) and the content blocks of
// packages/llm/llm/src/types.ts (text, reasoning, tool-call, tool-result) in the host repository.
import { decodeFrames, type FrameDecodeOptions } from './frames.ts';
import { argsPreview, clipChars, cleanAssistantText, cleanUserText, thinkingText, toEpochMs } from './text.ts';

export interface SessionHeader {
  id: string;
  cwd?: string;
  origin?: string;
  parentSession?: string;
  title?: string;
  createdAt?: unknown;
  [key: string]: unknown;
}

export interface SessionToolUse {
  name: string;
  argsPreview: string;
  /** The tool's result was an error. */
  error?: boolean;
}

export interface SessionTurn {
  /** 1-based position in this log (what session_read's from/to refer to). */
  turn: number;
  /** Epoch ms, null when the log has no times. */
  startedAt: number | null;
  /** The person's words, injected fragments removed; '' for a turn the person did not start. */
  user: string;
  /** The last visible assistant text of the turn (no thinking, no diary blocks). */
  assistant: string;
  tools: SessionToolUse[];
  /** The model's reasoning in this turn (reasoning blocks and inline <think> text), steps joined by a blank line; '' when none. */
  thinking: string;
  /** The turn's messages as stored (only with `keepRaw`). */
  raw?: SessionRawEvent[];
}

/** One stored message event of a turn, as the log holds it (the raw view renders these). */
export interface SessionRawEvent {
  type: 'user/message' | 'assistant/message' | 'tool/call' | 'tool/result';
  seq: number | null;
  time: number | null;
  data: Record<string, unknown>;
}

const RAW_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message', 'tool/call', 'tool/result']);

export interface SessionDamage {
  badFrames: number;
  badLines: number;
  /** Bytes outside any frame. */
  skippedBytes: number;
}

export interface SessionLog {
  header: SessionHeader;
  /** header.id (or the fallback id, when the header was lost). */
  id: string;
  cwd: string | null;
  title: string;
  /** Where the title came from: a session/title event, the header, the first user line, or nothing. */
  titleSource: 'event' | 'header' | 'derived' | 'none';
  turns: SessionTurn[];
  /** Epoch ms of the first / last recorded moment; null when unknown. */
  startedAt: number | null;
  endedAt: number | null;
  /** Event rows read. */
  events: number;
  damage: SessionDamage;
}

export interface ParseSessionOptions {
  /** Id to use when the header row is missing (the session's directory name). */
  fallbackId?: string;
  /** More tags of injected fragments to strip (e.g. the configured recall block name). */
  injectedTags?: readonly string[];
  /** Keep each turn's stored message events (`SessionTurn.raw`): only the raw view needs them. */
  keepRaw?: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** The header, whether stored bare (`{ id, cwd, … }`) or wrapped (`{ type: 'session/header', data }`). */
export function headerOf(row: Record<string, unknown>): SessionHeader | null {
  if (row.type === 'session/header' && isRecord(row.data) && str(row.data.id)) return row.data as SessionHeader;
  if (row.type === 'session/header' && isRecord(row.header) && str(row.header.id)) return row.header as SessionHeader;
  if ('seq' in row) return null;
  if (typeof row.type !== 'string' && isRecord(row.header) && str(row.header.id)) return row.header as SessionHeader;
  if ((typeof row.type !== 'string' || row.type === 'header' || row.type === 'session') && str(row.id)) return row as SessionHeader;
  return null;
}

/** The tool-result blocks of a result message (the host's createToolResultMessage wraps the output in one). */
const resultBlocks = (message: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(message.content) ? message.content.filter((b): b is Record<string, unknown> => isRecord(b) && b.type === 'tool-result') : [];

/**
 * The call a tool/result answers. The host (packages/llm/llm/src/message.ts, createToolResultMessage)
 * records it as `message.source.callId` and the block's `toolCallId`; older shapes as `callId` on
 * the event or the message.
 */
export function toolResultCallId(data: Record<string, unknown>, message: Record<string, unknown>): string | undefined {
  for (const v of [data.callId, message.callId, isRecord(message.source) ? message.source.callId : undefined, resultBlocks(message)[0]?.toolCallId])
    if (typeof v === 'string' && v !== '') return v;
  return undefined;
}

const isPerson = (data: Record<string, unknown>): boolean => isRecord(data.source) && data.source.kind === 'user';

interface OpenTurn {
  startedAt: number | null;
  user: string[];
  assistant: string;
  tools: SessionToolUse[];
  thinking: string[];
  raw: SessionRawEvent[];
  /** Opened by turn/start: a person's message belongs to it rather than opening another. */
  explicit: boolean;
}

// Reasoning alone does not make a turn: a turn is what was said or done.
const isEmptyTurn = (t: OpenTurn): boolean => t.user.length === 0 && t.assistant === '' && t.tools.length === 0;

export function parseSessionLog(rows: readonly unknown[], options: ParseSessionOptions = {}): SessionLog {
  const extraTags = options.injectedTags ?? [];
  let header: SessionHeader | null = null;
  let eventTitle: string | undefined;
  let first: number | null = null;
  let last: number | null = null;
  let events = 0;
  const turns: OpenTurn[] = [];
  // Held in an object: `open` reassigns it, which TypeScript's narrowing of a local would not see.
  const state: { current: OpenTurn | null } = { current: null };
  const byCall = new Map<string, SessionToolUse>();
  const seen = new Set<string>();
  const keepRaw = options.keepRaw === true;
  // Stored messages seen while no turn is open (a plugin's message before the person's): they go to the next turn.
  let pendingRaw: SessionRawEvent[] = [];

  const open = (at: number | null, explicit: boolean): OpenTurn => {
    const now = state.current;
    if (now && isEmptyTurn(now)) {
      now.explicit ||= explicit;
      now.startedAt ??= at;
      return now;
    }
    const turn: OpenTurn = { startedAt: at, user: [], assistant: '', tools: [], thinking: [], raw: [], explicit };
    turns.push(turn);
    state.current = turn;
    return turn;
  };

  for (const row of rows) {
    if (!isRecord(row)) continue;
    if (!header) {
      const h = headerOf(row);
      if (h) {
        header = h;
        continue;
      }
    }
    const type = row.type;
    if (typeof type !== 'string' || type === 'session/header') continue;
    // A redelivered event appears twice with the same seq.
    if (typeof row.seq === 'number') {
      const key = `${row.seq}\u0000${type}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    events++;
    const at = toEpochMs(row.time);
    if (at !== null) {
      if (first === null || at < first) first = at;
      if (last === null || at > last) last = at;
    }
    const data = isRecord(row.data) ? row.data : {};
    if (keepRaw && RAW_TYPES.has(type)) pendingRaw.push({ type: type as SessionRawEvent['type'], seq: typeof row.seq === 'number' ? row.seq : null, time: at, data });
    switch (type) {
      case 'turn/start':
        open(at, true);
        break;
      case 'turn/end':
        state.current = null;
        break;
      case 'user/message': {
        if (!isPerson(data)) break;
        const text = cleanUserText(data.content, extraTags);
        // Without turn/start events (older logs), a person's message after an answer starts a turn.
        const now = state.current;
        const turn: OpenTurn = now && (now.explicit || (now.assistant === '' && now.tools.length === 0)) ? now : open(at, false);
        turn.startedAt ??= at;
        if (text !== '') turn.user.push(text);
        break;
      }
      case 'assistant/message': {
        const message = isRecord(data.message) ? data.message : data;
        const text = cleanAssistantText(message.content, extraTags);
        const thought = thinkingText(message.content);
        if (text === '' && thought === '') break;
        const turn = state.current ?? open(at, false);
        if (text !== '') turn.assistant = text;
        if (thought !== '') turn.thinking.push(thought);
        break;
      }
      case 'tool/call': {
        const name = str(data.name) ?? '(unknown)';
        const use: SessionToolUse = { name, argsPreview: argsPreview(data.arguments) };
        (state.current ?? open(at, false)).tools.push(use);
        if (typeof data.callId === 'string') byCall.set(data.callId, use);
        break;
      }
      case 'tool/result': {
        const message = isRecord(data.message) ? data.message : {};
        const callId = toolResultCallId(data, message);
        const use = callId ? byCall.get(callId) : undefined;
        if (use && (data.error || message.isError === true || resultBlocks(message).some((b) => b.isError === true))) use.error = true;
        break;
      }
      case 'session/title': {
        const title = str(data.title);
        if (title) eventTitle = title.trim();
        break;
      }
      default:
        break;
    }
    if (pendingRaw.length > 0 && state.current) {
      state.current.raw.push(...pendingRaw);
      pendingRaw = [];
    }
  }

  const kept = turns.filter((t) => !isEmptyTurn(t));
  const outTurns: SessionTurn[] = kept.map((t, i) => ({
    turn: i + 1,
    startedAt: t.startedAt,
    user: t.user.join('\n\n'),
    assistant: t.assistant,
    tools: t.tools,
    thinking: t.thinking.join('\n\n'),
    ...(keepRaw ? { raw: t.raw } : {}),
  }));

  const id = str(header?.id) ?? options.fallbackId ?? '';
  const head: SessionHeader = header ? { ...header, id } : { id };
  const created = toEpochMs(head.createdAt);
  const startedAt = created !== null && (first === null || created <= first) ? created : first;

  let title: string;
  let titleSource: SessionLog['titleSource'];
  const headerTitle = str(head.title);
  const firstWords = outTurns.find((t) => t.user !== '')?.user.split('\n').find((l) => l.trim() !== '');
  if (eventTitle) [title, titleSource] = [eventTitle, 'event'];
  else if (headerTitle) [title, titleSource] = [headerTitle.trim(), 'header'];
  else if (firstWords) [title, titleSource] = [clipChars(firstWords.trim(), 40), 'derived'];
  else [title, titleSource] = [`会话 ${id.slice(0, 8) || '(无 id)'}`, 'none'];

  return {
    header: head,
    id,
    cwd: str(head.cwd) ?? null,
    title: title.replace(/\s+/g, ' '),
    titleSource,
    turns: outTurns,
    startedAt,
    endedAt: last ?? startedAt,
    events,
    damage: { badFrames: 0, badLines: 0, skippedBytes: 0 },
  };
}

/** Rows of an uncompressed log (the host's `session.jsonl`, compression off): one JSON object a line. */
function jsonlRows(bytes: Uint8Array): { rows: Record<string, unknown>[]; badLines: number } {
  const rows: Record<string, unknown>[] = [];
  let badLines = 0;
  for (const line of new TextDecoder('utf-8', { fatal: false }).decode(bytes).split('\n')) {
    const text = line.trim();
    if (text === '') continue;
    try {
      const value: unknown = JSON.parse(text);
      if (isRecord(value)) rows.push(value);
      else badLines++;
    } catch {
      badLines++;
    }
  }
  return { rows, badLines };
}

/** A log that starts with a JSON object rather than a zstd frame (after a BOM or blank space). */
function isPlainJsonl(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x7b;
}

/** Bytes of a session log (zstd frames, or plain JSONL) → its SessionLog, damage counted. */
export function readSessionBytes(bytes: Uint8Array, options: ParseSessionOptions & FrameDecodeOptions = {}): SessionLog {
  if (bytes instanceof Uint8Array && isPlainJsonl(bytes)) {
    const plain = jsonlRows(bytes);
    const log = parseSessionLog(plain.rows, options);
    log.damage = { badFrames: 0, badLines: plain.badLines, skippedBytes: 0 };
    return log;
  }
  const decoded = decodeFrames(bytes, options);
  const log = parseSessionLog(decoded.rows, options);
  log.damage = { badFrames: decoded.badFrames, badLines: decoded.badLines, skippedBytes: decoded.skippedBytes };
  return log;
}
