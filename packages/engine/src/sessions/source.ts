// "From this memory's source": a memory records the session that wrote it (its Meta line's
// `session=`, diary/meta.ts); this finds where in that session's log it came from, so session_read
// can open the log there. Pure.
//
// In order of trust:
//   import — a memory the session import wrote names its turns in its sections (`## 第 N 轮`);
//   words  — the turn whose words the memory's title and text match best (BM25, the engine's tokenizer);
//   time   — the turn under way at the memory's local date and time (a note is written during its turn);
//   end    — the last turns, when nothing else places it.
import { isDateString, isTimeString } from '../diary/dates.ts';
import type { Tokenizer } from '../types.ts';
import type { SessionLog } from './log.ts';
import { searchSession } from './search.ts';

/** What of a memory places it in its session. */
export interface MemoryForSource {
  docId: string;
  title: string;
  /** The memory's text (its file, or its body). */
  text: string;
  /** Local YYYY-MM-DD and HH:MM ('' when unknown). */
  date: string;
  time: string;
}

export interface SourceAnchor {
  /** Turns to show, 1-based inclusive. */
  from: number;
  to: number;
  /** The turn it came from (the middle of the window). */
  turn: number;
  how: 'import' | 'words' | 'time' | 'end';
}

const IMPORT_SECTION = /^##\s+第\s*(\d+)\s*轮/gm;
/** Characters of the memory read for its words: its opening says what it is about. */
const QUERY_CHARS = 1500;

/** The turns an import memory holds, when it is one of this session's. */
function importedTurns(memory: MemoryForSource, log: SessionLog): [number, number] | null {
  if (!memory.text.includes(`DSH 会话 ${log.id}`)) return null;
  const turns = [...memory.text.matchAll(IMPORT_SECTION)].map((m) => Number(m[1])).filter((n) => n >= 1 && n <= log.turns.length);
  return turns.length === 0 ? null : [Math.min(...turns), Math.max(...turns)];
}

/** Epoch ms of a local date and HH:MM (the diary's own fields), null when either is missing. */
function localMoment(date: string, time: string): number | null {
  if (!isDateString(date) || !isTimeString(time)) return null;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, h, min).getTime();
}

function turnAt(log: SessionLog, at: number): number | null {
  let found: number | null = null;
  // A note stamped 10:05 was written in 10:05:00–10:05:59, possibly by a turn that started at 10:05:40.
  for (const t of log.turns) if (t.startedAt !== null && t.startedAt < at + 60_000) found = t.turn;
  return found;
}

/**
 * The memory's words without its file's markup: the `[HH:MM]` an entry starts with and the `Meta:`
 * line say when and by whom it was written, not what it is about, and their numbers matched other
 * turns (a note written at 00:11 was placed at the turn that mentions notes/11.md).
 */
function contentOf(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*Meta:/.test(line))
    .map((line) => line.replace(/^\s*\[\d{1,2}:\d{2}\]\s*/, ''))
    .join('\n');
}

/** Where in `log` the memory came from, with a turn of context either side. */
export function memoryAnchor(log: SessionLog, memory: MemoryForSource, tokenizer: Tokenizer): SourceAnchor | null {
  const total = log.turns.length;
  if (total === 0) return null;
  const around = (turn: number, how: SourceAnchor['how']): SourceAnchor => ({ from: Math.max(1, turn - 1), to: Math.min(total, turn + 1), turn, how });
  const imported = importedTurns(memory, log);
  if (imported) return { from: imported[0], to: imported[1], turn: imported[0], how: 'import' };
  const query = `${memory.title}\n${contentOf(memory.text).slice(0, QUERY_CHARS)}`;
  const best = searchSession(log, query, tokenizer, { limit: 1 })[0];
  // One shared word is chance; two are a place.
  if (best && best.matched.length >= 2) return around(best.turn, 'words');
  const at = localMoment(memory.date, memory.time);
  const byTime = at === null ? null : turnAt(log, at);
  if (byTime !== null) return around(byTime, 'time');
  return { from: Math.max(1, total - 2), to: total, turn: total, how: 'end' };
}
