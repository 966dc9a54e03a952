// The compaction archive: the note tier of each summary, one section per compaction. Material,
// not rules: never injected. A byte budget bounds the file; the oldest sections go first and the
// head says how many went. A section that alone exceeds the budget is refused and counted in the
// head — never cut: half a note read as the whole is worse than none. Bodies sit in a code fence
// one backtick longer than any run inside them, so nothing in a body can pose as structure. Pure.
import { collapseWhitespace, normaliseLineEnds, splitLines } from './text.ts';

export interface ArchiveSection {
  n: number;
  title: string;
  date: string;
  compactionId: string;
  body: string;
}

export interface ArchiveHead {
  evicted: number;
  lastEvictedDate: string | null;
  refused: number;
  refusedBytes: number;
}

export interface ArchiveDoc {
  head: ArchiveHead;
  sections: ArchiveSection[];
}

export const emptyArchive = (): ArchiveDoc => ({ head: { evicted: 0, lastEvictedDate: null, refused: 0, refusedBytes: 0 }, sections: [] });

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

export function fenceFor(body: string): string {
  let longest = 0;
  for (const run of body.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

const HEAD_MARKER = /^<!-- engram:compaction-archive v1 evicted=(\d+) evicted-newest=(\S*) refused=(\d+) refused-bytes=(\d+) -->$/;
const SECTION = /^## §(\d+) (.*) · (\d{4}-\d{2}-\d{2}) · (\S+)$/;
const oneLine = (text: string): string => collapseWhitespace(text) || '-';

function renderHead(head: ArchiveHead, sessionId: string, maxBytes: number): string[] {
  const lines = [
    '# 压缩存档',
    `<!-- engram:compaction-archive v1 evicted=${head.evicted} evicted-newest=${head.lastEvictedDate ?? ''} refused=${head.refused} refused-bytes=${head.refusedBytes} -->`,
    `> 会话 ${oneLine(sessionId)}:压缩摘要里次一档的内容(教训、路径、数字)。是资料,不是规则,不注入。上限 ${maxBytes} 字节,超出时从最老的节开始淘汰。`,
  ];
  if (head.evicted > 0) lines.push(`> 已按体积淘汰 ${head.evicted} 节 · 最新 ${head.lastEvictedDate ?? '-'}`);
  if (head.refused > 0) lines.push(`> 有 ${head.refused} 条超 ${maxBytes} 字节上限未写入 · 合计 ${head.refusedBytes} 字节`);
  return lines;
}

function renderSection(section: ArchiveSection): string[] {
  const body = normaliseLineEnds(section.body);
  const fence = fenceFor(body);
  return ['', `## §${section.n} ${oneLine(section.title)} · ${section.date} · ${oneLine(section.compactionId).replace(/\s/g, '_')}`, fence, body, fence];
}

export function renderArchive(doc: ArchiveDoc, sessionId: string, maxBytes: number): string {
  return `${[...renderHead(doc.head, sessionId, maxBytes), ...doc.sections.flatMap(renderSection)].join('\n')}\n`;
}

/** Reads an archive back; fence interiors are skipped when looking for structure. */
export function parseArchive(text: string): ArchiveDoc {
  const doc = emptyArchive();
  let current: ArchiveSection | null = null;
  let fence: string | null = null;
  let body: string[] = [];
  for (const line of splitLines(text)) {
    if (fence !== null) {
      if (line === fence) {
        if (current) current.body = body.join('\n');
        fence = null;
        current = null;
      } else body.push(line);
      continue;
    }
    const head = HEAD_MARKER.exec(line);
    if (head) {
      doc.head = { evicted: Number(head[1]), lastEvictedDate: head[2] || null, refused: Number(head[3]), refusedBytes: Number(head[4]) };
      continue;
    }
    const section = SECTION.exec(line);
    if (section) {
      current = { n: Number(section[1]), title: section[2]!, date: section[3]!, compactionId: section[4]!, body: '' };
      doc.sections.push(current);
      continue;
    }
    if (current && /^`{3,}$/.test(line)) {
      fence = line;
      body = [];
    }
  }
  return doc;
}

export type ArchiveOutcome = 'added' | 'duplicate' | 'refused';

export interface ArchiveAddResult {
  doc: ArchiveDoc;
  outcome: ArchiveOutcome;
  /** Sections evicted to make room. */
  evicted: number;
  bytes: number;
}

/**
 * Adds one compaction's section. Idempotent per compactionId. Refused (and counted) when the
 * section cannot fit even alone; otherwise the oldest sections are evicted until the file fits.
 */
export function addToArchive(doc: ArchiveDoc, section: Omit<ArchiveSection, 'n'>, options: { maxBytes: number; sessionId: string }): ArchiveAddResult {
  const id = oneLine(section.compactionId).replace(/\s/g, '_');
  if (doc.sections.some((s) => s.compactionId === id)) return { doc, outcome: 'duplicate', evicted: 0, bytes: 0 };
  const n = doc.sections.reduce((max, s) => Math.max(max, s.n), 0) + 1;
  const entry: ArchiveSection = { ...section, compactionId: id, n };
  const bytes = utf8Bytes(renderSection(entry).join('\n'));
  const alone: ArchiveDoc = { head: doc.head, sections: [entry] };
  if (utf8Bytes(renderArchive(alone, options.sessionId, options.maxBytes)) > options.maxBytes) {
    const head = { ...doc.head, refused: doc.head.refused + 1, refusedBytes: doc.head.refusedBytes + bytes };
    return { doc: { head, sections: doc.sections }, outcome: 'refused', evicted: 0, bytes };
  }
  const next: ArchiveDoc = { head: { ...doc.head }, sections: [...doc.sections, entry] };
  let evicted = 0;
  while (next.sections.length > 1 && utf8Bytes(renderArchive(next, options.sessionId, options.maxBytes)) > options.maxBytes) {
    const gone = next.sections.shift()!;
    evicted++;
    next.head.evicted++;
    next.head.lastEvictedDate = next.head.lastEvictedDate && next.head.lastEvictedDate > gone.date ? next.head.lastEvictedDate : gone.date;
  }
  return { doc: next, outcome: 'added', evicted, bytes };
}
