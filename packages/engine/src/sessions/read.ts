// Text for session_read: a page of a session's turns within a character budget, in one of three
// views, and the listing of a workspace's sessions. Pure.
//   turns    — what was said: the person's words, the final answers, the tools used (the default)
//   thinking — the same with the model's reasoning of each turn
//   raw      — the turn's messages as the log stores them (needs a log parsed with `keepRaw`)
import { zonedStamp } from '../timeq/calendar.ts';
import type { SessionListItem } from './list.ts';
import type { SessionLog, SessionTurn } from './log.ts';
import { renderRawTurn } from './raw.ts';
import { clipChars } from './text.ts';

export const SESSION_VIEWS = ['turns', 'thinking', 'raw'] as const;
export type SessionView = (typeof SESSION_VIEWS)[number];

export interface SessionReadOptions {
  /** 1-based inclusive turn range; default: from the first turn, as many as fit. */
  turns?: [number, number?];
  maxChars: number;
  /** Default 'turns'. */
  view?: SessionView;
  /** A line under the header saying why these turns (e.g. which memory they are the source of). */
  note?: string;
  /** The zone times are shown in: the data directory's (engine.timeZone); absent, this machine's. */
  timeZone?: string;
}

export interface SessionReadPage {
  text: string;
  /** Turns shown (inclusive); 0/0 when none. */
  from: number;
  to: number;
  total: number;
  /** First turn not shown (for the next call), null when the range was shown to its end. */
  nextFrom: number | null;
  /** The last shown turn was cut to fit. */
  cut: boolean;
}

const stamp = (ms: number | null, timeZone: string | undefined): string => {
  if (ms === null) return '时间未知';
  const { date, time } = zonedStamp(ms, timeZone);
  return `${date} ${time}`;
};

/** The time of a turn within its session ("HH:MM"), in `timeZone`. */
const turnTime = (ms: number, timeZone: string | undefined): string => zonedStamp(ms, timeZone).time;

function span(log: SessionLog, timeZone: string | undefined): string {
  if (log.startedAt === null) return '时间未知';
  if (log.endedAt === null || log.endedAt === log.startedAt) return stamp(log.startedAt, timeZone);
  const [start, end] = [zonedStamp(log.startedAt, timeZone), zonedStamp(log.endedAt, timeZone)];
  return `${start.date} ${start.time} – ${start.date === end.date ? end.time : `${end.date} ${end.time}`}`;
}

export function toolsLine(tools: SessionTurn['tools'], maxChars = 400): string {
  const parts = tools.map((t) => `${t.name}${t.argsPreview ? `(${t.argsPreview})` : ''}${t.error ? ' ✗' : ''}`);
  return clipChars(parts.join('、'), maxChars);
}

export function renderTurn(turn: SessionTurn, view: SessionView = 'turns', timeZone?: string): string {
  if (view === 'raw') return renderRawTurn(turn, timeZone);
  const when = turn.startedAt === null ? '' : ` · ${turnTime(turn.startedAt, timeZone)}`;
  const lines = [`—— 第 ${turn.turn} 轮${when} ——`];
  lines.push(`用户:${turn.user !== '' ? turn.user : '(本轮没有用户发言)'}`);
  // The reasoning before the answer: the order it happened in.
  if (view === 'thinking') lines.push(`思考:${turn.thinking !== '' ? turn.thinking : '(本轮没有记录思考)'}`);
  if (turn.assistant !== '') lines.push(`助手:${turn.assistant}`);
  if (turn.tools.length > 0) lines.push(`工具:${toolsLine(turn.tools)}`);
  return lines.join('\n');
}

function damageNote(log: SessionLog): string {
  const { badFrames, badLines } = log.damage;
  if (badFrames + badLines === 0) return '';
  return `(日志有损坏:跳过了 ${badFrames} 个帧、${badLines} 行,那部分对话缺失)`;
}

const VIEW_LABEL: Record<SessionView, string> = { turns: '', thinking: ' · 含思考', raw: ' · 原始消息' };

/** The lines that open every answer about one session. */
export function sessionHead(log: SessionLog, view: SessionView = 'turns', note?: string, timeZone?: string): string {
  return [
    `会话 ${log.id} · ${clipChars(log.title, 80)}`,
    `${span(log, timeZone)} · 共 ${log.turns.length} 轮${log.cwd ? ` · 工作目录 ${log.cwd}` : ''}${VIEW_LABEL[view]}`,
    damageNote(log),
    note ?? '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** How the next page is asked for, in the view it was read in. */
export const viewArg = (view: SessionView): string => (view === 'turns' ? '' : `, view: "${view}"`);

export function sessionReadPage(log: SessionLog, options: SessionReadOptions): SessionReadPage {
  const total = log.turns.length;
  const view = options.view ?? 'turns';
  // The config floor (sessions.readMaxChars ≥ 500) leaves room for the header and one cut turn.
  const maxChars = Math.max(500, Math.floor(options.maxChars) || 0);
  const idShort = log.id.slice(0, 8);
  const head = sessionHead(log, view, options.note, options.timeZone);
  if (total === 0) return { text: `${head}\n这次会话没有可读的对话。`, from: 0, to: 0, total, nextFrom: null, cut: false };

  const rawFrom = options.turns?.[0];
  const rawTo = options.turns?.[1];
  const from = Math.min(total, Math.max(1, Number.isInteger(rawFrom) ? rawFrom! : 1));
  const to = Math.min(total, Math.max(from, Number.isInteger(rawTo) ? rawTo! : total));
  if (Number.isInteger(rawFrom) && rawFrom! > total)
    return { text: `${head}\n只有 ${total} 轮;第 ${rawFrom} 轮不存在。`, from: 0, to: 0, total, nextFrom: null, cut: false };

  // Room for the header and the "more" line that may follow.
  const tailRoom = 120;
  let budget = maxChars - head.length - tailRoom;
  const blocks: string[] = [];
  let shownTo = from - 1;
  let cut = false;
  for (let n = from; n <= to; n++) {
    const block = renderTurn(log.turns[n - 1]!, view, options.timeZone);
    if (block.length + 2 <= budget) {
      blocks.push(block);
      budget -= block.length + 2;
      shownTo = n;
      continue;
    }
    // The first turn of a page is shown even when it alone is too long (cut), so paging advances.
    if (blocks.length === 0) {
      const room = Math.max(80, budget - 40);
      blocks.push(`${clipChars(block, room)}\n(本轮原文 ${block.length} 字,已截断)`);
      shownTo = n;
      cut = true;
    }
    break;
  }
  const nextFrom = shownTo < to ? shownTo + 1 : null;
  const lines = [head, '', blocks.join('\n\n')];
  if (nextFrom !== null) lines.push('', `(还有第 ${nextFrom}–${to} 轮未显示:session_read({ id: "${idShort}", from: ${nextFrom}${viewArg(view)} }))`);
  return { text: lines.join('\n'), from, to: shownTo, total, nextFrom, cut };
}

/** The text session_read returns for a session. */
export function formatSessionRead(log: SessionLog, options: SessionReadOptions): string {
  return sessionReadPage(log, options).text;
}

export interface SessionListTextOptions {
  maxChars: number;
  /** The calling session (marked, not hidden). */
  currentId?: string;
  /** Where the list came from, for the heading (e.g. the workspace folder). */
  scope?: string;
  /** The zone times are shown in (see SessionReadOptions). */
  timeZone?: string;
}

/** The listing session_read returns when no id is given. */
export function formatSessionList(items: readonly SessionListItem[], options: SessionListTextOptions): string {
  const where = options.scope ? `(${options.scope})` : '';
  if (items.length === 0) return `本工作区${where}没有找到过去的会话记录。`;
  const head = `本工作区${where}的历史会话共 ${items.length} 个,新的在前:`;
  const foot = '用 session_read({ id: "<id 前 8 位>" }) 读取某次会话的对话,from/to 按轮翻页。';
  let budget = Math.max(200, options.maxChars) - head.length - foot.length - 60;
  const rows: string[] = [];
  for (const item of items) {
    const current = options.currentId && item.id === options.currentId ? ' (当前会话)' : '';
    const row = `- ${item.id.slice(0, 8)} · ${stamp(item.startedAt ?? item.mtimeMs, options.timeZone)} · ${clipChars(item.title, 60)} · ${item.turns} 轮${item.damaged ? ' · 日志有损坏' : ''}${current}`;
    if (row.length + 1 > budget) break;
    rows.push(row);
    budget -= row.length + 1;
  }
  const more = rows.length < items.length ? `(还有 ${items.length - rows.length} 个较早的会话未列出)` : '';
  return [head, ...rows, more, foot].filter(Boolean).join('\n');
}
