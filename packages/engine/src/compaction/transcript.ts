// L2: what the folded range said. The person's and the assistant's text (no reasoning, no tool
// calls, no fragments other plugins injected), one block per exchange, plus the results of
// read-type tools, which hold the file contents and search results the conversation relied on.
// Pure: the caller hands in the events of the shadowed range.
import { splitByLength } from './split.ts';
import { titleOf } from './sections.ts';
import { beginningOf, clipChars, DEFAULT_INJECTED_TAGS, stripInjectedFragments } from './text.ts';
import type { TranscriptEvent } from './types.ts';

export interface TranscriptOptions {
  dialogue: boolean;
  toolResults: boolean;
  /** Tool names whose results are kept (case-insensitive). */
  readTools: readonly string[];
  maxBlockChars: number;
  /** 0 = keep whole results. */
  maxToolResultChars: number;
  /** Extra tags of injected fragments to strip (e.g. the recall block's tag). */
  injectedTags?: readonly string[];
}

export interface TranscriptPiece {
  kind: 'dialogue' | 'tool';
  title: string;
  body: string;
  seqStart: number;
  seqEnd: number;
  cutFrom: number | null;
}

const textBlocks = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  // Only visible text: 'reasoning' / 'thinking' blocks and tool calls are not what was said.
  return content
    .filter((b) => b && typeof b === 'object' && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string')
    .map((b) => (b as { text: string }).text)
    .join('\n\n');
};

const sourceKind = (data: any): string | undefined => (data?.source && typeof data.source === 'object' ? data.source.kind : undefined);

/** A short description of a tool call's target: its path, pattern, url or query argument. */
export function toolTarget(rawArguments: unknown): string {
  let args: unknown = rawArguments;
  if (typeof rawArguments === 'string') {
    try {
      args = JSON.parse(rawArguments);
    } catch {
      return clipChars(rawArguments, 80);
    }
  }
  if (!args || typeof args !== 'object') return '';
  const record = args as Record<string, unknown>;
  for (const key of ['path', 'file_path', 'filePath', 'file', 'pattern', 'glob', 'url', 'query', 'q']) {
    if (typeof record[key] === 'string' && record[key] !== '') return clipChars(record[key] as string, 80);
  }
  return clipChars(JSON.stringify(args), 80);
}

/**
 * The most of one message of the folded range the memory reads, in UTF-16 code units, as a tool
 * result's is cut at maxToolResultChars: a person pastes a log of megabytes the model never took, and
 * splitting and tokenising all of it held the host for seconds (sections.ts MAX_SUMMARY_CHARS says
 * why the same for a summary). 20,000 holds any message a conversation really has with room to spare.
 */
export const MAX_MESSAGE_CHARS = 20_000;

interface Exchange {
  user: string[];
  assistant: string[];
  seqStart: number;
  seqEnd: number;
  /** The longest message of the exchange before it was cut to MAX_MESSAGE_CHARS; null = none was. */
  cutFrom: number | null;
}

/** A message's beginning, and what it was cut from (the longest cut so far of the exchange). */
function readMessage(text: string, exchange: Exchange): string {
  const { text: kept, cutFrom } = beginningOf(text, MAX_MESSAGE_CHARS);
  if (cutFrom !== null) exchange.cutFrom = Math.max(exchange.cutFrom ?? 0, cutFrom);
  return kept;
}

export function extractTranscript(events: readonly TranscriptEvent[], options: TranscriptOptions): TranscriptPiece[] {
  const tags = [...DEFAULT_INJECTED_TAGS, ...(options.injectedTags ?? [])];
  const readTools = new Set(options.readTools.map((t) => t.toLowerCase()));
  const calls = new Map<string, { name: string; arguments: unknown }>();
  const pieces: TranscriptPiece[] = [];
  let exchange: Exchange | null = null;

  const flush = () => {
    if (!exchange) return;
    const user = exchange.user.join('\n\n').trim();
    const assistant = exchange.assistant.join('\n\n').trim();
    exchange.user.length = 0;
    if (options.dialogue && (user !== '' || assistant !== '')) {
      const body = [user !== '' ? `用户:${user}` : '', assistant !== '' ? `助手:${assistant}` : ''].filter(Boolean).join('\n');
      const title = titleOf(user !== '' ? user : assistant) || '对话';
      const parts = splitByLength(body, options.maxBlockChars);
      parts.forEach((part, i) =>
        pieces.push({ kind: 'dialogue', title: parts.length > 1 ? `${title} (${i + 1}/${parts.length})` : title, body: part, seqStart: exchange!.seqStart, seqEnd: exchange!.seqEnd, cutFrom: exchange!.cutFrom }),
      );
    }
    exchange = null;
  };

  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  for (const event of sorted) {
    const data = event.data;
    if (event.type === 'user/message') {
      // Only a person's message is dialogue: plugin text, host snapshots and earlier summaries are not.
      if (sourceKind(data) !== 'user') continue;
      const text = stripInjectedFragments(textBlocks(data?.content), tags);
      flush();
      exchange = { user: [], assistant: [], seqStart: event.seq, seqEnd: event.seq, cutFrom: null };
      if (text) exchange.user.push(readMessage(text, exchange));
      continue;
    }
    if (event.type === 'assistant/message') {
      const text = stripInjectedFragments(textBlocks(data?.message?.content), tags);
      if (text === '') continue;
      exchange ??= { user: [], assistant: [], seqStart: event.seq, seqEnd: event.seq, cutFrom: null };
      exchange.assistant.push(readMessage(text, exchange));
      exchange.seqEnd = event.seq;
      continue;
    }
    if (event.type === 'tool/call' && typeof data?.callId === 'string') {
      calls.set(data.callId, { name: String(data.name ?? ''), arguments: data.arguments });
      continue;
    }
    if (event.type === 'tool/result' && options.toolResults) {
      const message = data?.message;
      const callId = typeof message?.callId === 'string' ? message.callId : undefined;
      const name = String(message?.name ?? (callId ? calls.get(callId)?.name : '') ?? '');
      if (!readTools.has(name.toLowerCase()) || data?.error) continue;
      const full = textBlocks(message?.content).trim();
      if (full === '') continue;
      const chars = Array.from(full);
      const limit = options.maxToolResultChars;
      const kept = limit > 0 && chars.length > limit ? chars.slice(0, limit).join('') : full;
      const cutFrom = kept === full ? null : chars.length;
      const target = callId ? toolTarget(calls.get(callId)?.arguments) : '';
      const title = clipChars(`${name}${target ? ` ${target}` : ''}`, 60);
      const parts = splitByLength(kept, options.maxBlockChars);
      parts.forEach((part, i) =>
        pieces.push({ kind: 'tool', title: parts.length > 1 ? `${title} (${i + 1}/${parts.length})` : title, body: part, seqStart: event.seq, seqEnd: event.seq, cutFrom }),
      );
    }
  }
  flush();
  return pieces;
}
