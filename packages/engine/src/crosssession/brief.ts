// What a brief says: the memories other sessions wrote or changed in a time window, grouped by the
// session that wrote them (a couple per session: "roughly what it did", not a dump), how long since
// this session last synced, and the latest wall messages. Pure: the service does the reading.
import { GLOBAL_WORKSPACE } from '../diary/meta.ts';
import { clipChars, collapseWhitespace } from '../compaction/text.ts';
import { shortSession } from './provenance.ts';

export const BRIEF_PER_SESSION = 2;
export const BRIEF_MAX_SESSIONS = 8;
export const BRIEF_WALL_ITEMS = 3;

export interface BriefMemory {
  docId: string;
  title: string;
  date: string;
  time: string | null;
  summary: string;
  workspace: string;
  sessionId: string;
  mtimeMs: number;
}

export interface BriefGroup {
  sessionId: string;
  short: string;
  /** Memories of this session in the window (only the newest BRIEF_PER_SESSION are listed). */
  total: number;
  items: BriefMemory[];
}

export interface WallItem {
  id: string;
  at: string;
  fromSession: string;
  fromShort: string;
  fromWorkspace: string;
  /** As stored: '' | 's:<prefix>' | 'ws:<id>'. */
  recipient: string;
  /** Who it is for, in words. */
  to: string;
  /** Addressed to the reader (by session prefix or workspace); public messages are not. */
  toMe: boolean;
  /** Written by the reader. */
  mine: boolean;
  text: string;
}

export interface BriefResult {
  sessionId: string;
  workspace: string;
  /** No cursor existed: the window is the configured look-back. */
  firstSync: boolean;
  /** Start of the window (the previous sync, or now − look-back), ISO. */
  since: string;
  now: string;
  elapsedMs: number;
  groups: BriefGroup[];
  /** Memories in the window, all sessions together. */
  memories: number;
  /** Sessions left out of `groups` by BRIEF_MAX_SESSIONS. */
  sessionsOmitted: number;
  wall: WallItem[];
  /** false when the data is read-only: the next brief shows the same window again. */
  cursorAdvanced: boolean;
  lookbackHours: number;
  text: string;
}

/** A memory before the filter: it may have no recorded session. */
type Candidate = Omit<BriefMemory, 'sessionId'> & { sessionId: string | null };

/**
 * A file's mtime comes from the kernel's coarse clock (a tick of a few ms; 2 s on FAT), so a memory
 * written just after a brief can carry an mtime before that brief's `now` and would never be reported.
 * The window therefore reaches back this far before the cursor, and the cursor remembers which
 * memories of that stretch the last brief already saw, so nothing is reported twice either.
 */
export const MTIME_SLACK_MS = 2_000;

const seenKey = (m: { docId: string; mtimeMs: number }) => `${m.docId}@${m.mtimeMs}`;

/** A stored cursor: the brief's `now`, then `#` and the memories of the slack stretch it saw. */
export function parseCursor(value: string | null): { ms: number; seen: Set<string> } {
  if (value === null) return { ms: Number.NaN, seen: new Set() };
  const at = value.indexOf('#');
  const ms = Date.parse(at < 0 ? value : value.slice(0, at));
  return { ms, seen: new Set(at < 0 ? [] : value.slice(at + 1).split(',').filter(Boolean)) };
}

export function formatCursor(nowMs: number, memories: readonly { docId: string; mtimeMs: number }[]): string {
  const seen = memories.filter((m) => m.mtimeMs > nowMs - MTIME_SLACK_MS && m.mtimeMs <= nowMs).map(seenKey);
  return `${new Date(nowMs).toISOString()}${seen.length > 0 ? `#${seen.join(',')}` : ''}`;
}

/**
 * Memories by sessions other than `me` changed in (sinceMs, nowMs] — or in the slack stretch before
 * sinceMs and not in `seen` — grouped per session; sessions with the newest change first, each with
 * its newest `perSession` memories.
 */
export function groupOtherSessions(
  memories: readonly Candidate[],
  me: string,
  window: { sinceMs: number; nowMs: number; seen?: ReadonlySet<string> },
  limits: { perSession?: number; maxSessions?: number } = {},
): { groups: BriefGroup[]; memories: number; sessionsOmitted: number } {
  const perSession = limits.perSession ?? BRIEF_PER_SESSION;
  const maxSessions = limits.maxSessions ?? BRIEF_MAX_SESSIONS;
  const bySession = new Map<string, BriefMemory[]>();
  let count = 0;
  for (const m of memories) {
    if (!m.sessionId || m.sessionId === me) continue;
    if (m.mtimeMs > window.nowMs) continue;
    const late = m.mtimeMs > window.sinceMs - MTIME_SLACK_MS && m.mtimeMs <= window.sinceMs && window.seen !== undefined && !window.seen.has(seenKey(m));
    if (!(m.mtimeMs > window.sinceMs || late)) continue;
    const list = bySession.get(m.sessionId) ?? [];
    list.push({ docId: m.docId, title: m.title, date: m.date, time: m.time, summary: m.summary, workspace: m.workspace, sessionId: m.sessionId, mtimeMs: m.mtimeMs });
    bySession.set(m.sessionId, list);
    count++;
  }
  const newestFirst = (a: BriefMemory, b: BriefMemory) => b.mtimeMs - a.mtimeMs || (a.docId < b.docId ? -1 : 1);
  const all = [...bySession.entries()].map(([sessionId, list]) => {
    list.sort(newestFirst);
    return { sessionId, short: shortSession(sessionId), total: list.length, items: list.slice(0, perSession) };
  });
  all.sort((a, b) => newestFirst(a.items[0]!, b.items[0]!));
  return { groups: all.slice(0, maxSessions), memories: count, sessionsOmitted: Math.max(0, all.length - maxSessions) };
}

/** "3 小时 12 分钟", "2 天 5 小时", "不到 1 分钟". */
export function formatElapsed(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return '不到 1 分钟';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} 天 ${hours} 小时` : `${days} 天`;
  if (hours > 0) return mins > 0 ? `${hours} 小时 ${mins} 分钟` : `${hours} 小时`;
  return `${mins} 分钟`;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Local "YYYY-MM-DD HH:MM" of an ISO instant (the machine's time zone, as people read clocks). */
export function localStamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function memoryLine(m: BriefMemory): string {
  const summary = collapseWhitespace(m.summary);
  const scope = m.workspace === GLOBAL_WORKSPACE ? '〔global〕' : '';
  return `  - ${m.date}${m.time ? ` ${m.time}` : ''} · ${clipChars(collapseWhitespace(m.title), 60)}${summary ? ` — ${clipChars(summary, 80)}` : ''}${scope} (docId: ${m.docId})`;
}

export function wallLine(w: WallItem): string {
  const mark = w.toMe ? '[给你] ' : w.mine ? '[你发的] ' : '';
  return `  - ${mark}s:${w.fromShort} → ${w.to} · ${localStamp(w.at)}:${clipChars(collapseWhitespace(w.text), 300)}`;
}

export function renderBrief(r: Omit<BriefResult, 'text'>): string {
  const lines: string[] = [];
  lines.push(
    r.firstSync
      ? `首次同步:回看最近 ${r.lookbackHours} 小时(自 ${localStamp(r.since)} 起)。`
      : `距上次同步 ${formatElapsed(r.elapsedMs)}(上次 ${localStamp(r.since)})。`,
  );
  if (r.groups.length === 0) lines.push('这段时间里其他会话没有写下或改动记忆(没写记忆的会话在这里看不到)。');
  else {
    const sessions = r.groups.length + r.sessionsOmitted;
    lines.push(`这段时间里其他 ${sessions} 个会话写下或改动了 ${r.memories} 条记忆(每个会话列最新 ${BRIEF_PER_SESSION} 条):`);
    for (const g of r.groups) {
      lines.push(`· 会话 s:${g.short}${g.total > g.items.length ? `(共 ${g.total} 条)` : ''}`);
      for (const m of g.items) lines.push(memoryLine(m));
    }
    if (r.sessionsOmitted > 0) lines.push(`· 另有 ${r.sessionsOmitted} 个会话未列出(engram_list 可看全部)。`);
  }
  if (r.wall.length > 0) {
    lines.push('墙上最新留言:');
    for (const w of r.wall) lines.push(wallLine(w));
  }
  lines.push(r.cursorAdvanced ? '同步点已推进到此刻:这些内容下次不会再出现。' : '数据只读,同步点没有推进:下次还会看到同样的内容。');
  return lines.join('\n');
}
