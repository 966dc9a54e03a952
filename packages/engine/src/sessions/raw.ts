// The raw view of a turn: its messages as the log stores them, in log order — the person's and the
// plugins' user messages (injected fragments left in), each assistant message block by block
// (reasoning, text, tool calls), the tool calls with their arguments verbatim and the tool results.
// Readable text rather than JSON; only a tool result is clipped (a file read can be megabytes), and
// the page budget of session_read cuts the rest. Pure.
//
// Shapes: packages/core/session/src/types.ts (SessionEventMap) and packages/llm/llm/src/types.ts
// (ContentBlockMap: text, reasoning, image, tool-call, tool-result) in the host repository.
import { toolResultCallId, type SessionRawEvent, type SessionTurn } from './log.ts';
import { clipChars } from './text.ts';
import { zonedStamp } from '../timeq/calendar.ts';

/** Characters of one tool result shown. */
export const RAW_TOOL_RESULT_CHARS = 2000;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function sourceLabel(source: unknown): string {
  if (!isRecord(source)) return '';
  if (source.kind === 'user') return '用户';
  if (source.kind === 'plugin') return `插件 ${typeof source.plugin === 'string' ? source.plugin : '?'}${typeof source.form === 'string' ? `/${source.form}` : ''}`;
  if (typeof source.kind === 'string') return source.kind;
  return '';
}

function blocksText(content: unknown, skipCalls: ReadonlySet<string>, clip: number | null): string[] {
  if (typeof content === 'string') return [clip === null ? content : clipped(content, clip)];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    const type = typeof block.type === 'string' ? block.type : '?';
    if (type === 'text' || type === 'output_text') out.push(clip === null ? String(block.text ?? '') : clipped(String(block.text ?? ''), clip));
    else if (type === 'reasoning' || type === 'thinking') out.push(`〔思考〕${String(block.thinking ?? block.text ?? '')}`);
    else if (type === 'tool-call') {
      // The same call is logged as its own tool/call event; shown once, there.
      if (typeof block.id === 'string' && skipCalls.has(block.id)) continue;
      out.push(`〔调用 ${String(block.name ?? '?')}〕${String(block.arguments ?? '')}`);
    } else if (type === 'tool-result') out.push(...blocksText(block.content, skipCalls, clip));
    else if (type === 'image') out.push('〔图片〕');
    else out.push(`〔${type}〕${clipChars(JSON.stringify(block), 300)}`);
  }
  return out;
}

function clipped(text: string, max: number): string {
  return text.length <= max ? text : `${clipChars(text, max)}(原文 ${text.length} 字,已截断)`;
}

function renderEvent(event: SessionRawEvent, loggedCalls: ReadonlySet<string>): string {
  const d = event.data;
  const at = event.seq === null ? '' : `#${event.seq} `;
  switch (event.type) {
    case 'user/message': {
      const who = sourceLabel(d.source);
      return [`[${at}user/message${who ? ` · ${who}` : ''}]`, ...blocksText(d.content, loggedCalls, null)].join('\n');
    }
    case 'assistant/message': {
      const message = isRecord(d.message) ? d.message : d;
      const step = typeof d.step === 'number' ? ` · step ${d.step}` : '';
      return [`[${at}assistant/message${step}${d.interrupted === true ? ' · 中断' : ''}]`, ...blocksText(message.content, loggedCalls, null)].join('\n');
    }
    case 'tool/call':
      return `[${at}tool/call · ${String(d.name ?? '?')}]\n${typeof d.arguments === 'string' ? d.arguments : JSON.stringify(d.arguments ?? null)}`;
    case 'tool/result': {
      const message = isRecord(d.message) ? d.message : {};
      const failed = d.error !== undefined || message.isError === true || (Array.isArray(message.content) && message.content.some((b) => isRecord(b) && b.isError === true));
      const callId = toolResultCallId(d, message) ?? '';
      return [`[${at}tool/result${callId ? ` · ${callId}` : ''}${failed ? ' · 出错' : ''}]`, ...blocksText(message.content, loggedCalls, RAW_TOOL_RESULT_CHARS)].join('\n');
    }
  }
}

export function renderRawTurn(turn: SessionTurn, timeZone?: string): string {
  const when = turn.startedAt === null ? '' : ` · ${zonedStamp(turn.startedAt, timeZone).time}`;
  const raw = turn.raw ?? [];
  const head = `—— 第 ${turn.turn} 轮${when} · 原始消息 ${raw.length} 条 ——`;
  if (raw.length === 0) return `${head}\n(没有读取原始消息)`;
  const loggedCalls = new Set(raw.filter((e) => e.type === 'tool/call' && typeof e.data.callId === 'string').map((e) => e.data.callId as string));
  return [head, ...raw.map((e) => renderEvent(e, loggedCalls))].join('\n');
}
