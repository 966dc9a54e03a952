// A compaction summary of megabytes: the memory reads only its beginning (MAX_SUMMARY_CHARS), says so
// in one log line without the summary's words, and records the cut in the report and the archive.
// Sizes and behaviour only, never timing: tokenising all of it held the host's event loop for
// seconds (3 MB ≈ 6 s on a 2-core machine).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '@engram/db';
import { configSchema, type EngramConfigInput } from '../../src/config/schema.ts';
import { CompactionMemory } from '../../src/compaction/memory.ts';
import { capSummary, MAX_SUMMARY_CHARS } from '../../src/compaction/sections.ts';
import type { LogLevel } from '../../src/log.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const tokenizer = createTokenizer({ kind: 'auto' });
const scope = { workspace: '/work/p', sessionId: 's-cap' };

async function open(t: { after(fn: () => unknown): void }, input: EngramConfigInput = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-cmp-cap-'));
  const database = await openDatabase({ url: `file:${join(dataDir, 'engram.db')}` });
  t.after(() => {
    database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const config = configSchema.parse({ ...input, dataDir });
  const lines: { level: LogLevel; message: string }[] = [];
  const memory = new CompactionMemory({ database, dataDir, tokenizer, config: () => config, log: (level, message) => lines.push({ level, message }), now: () => new Date('2026-03-10T08:00:00Z') });
  return { memory, lines };
}

const FIRST = '## 东京节点端口\n443 被占用,东京节点端口定为 8443,以后一律用 8443。\n\n';
const filler = (i: number): string => `## 第 ${i} 轮排查\n这一轮排查了 sing-box 的配置与日志,记录了回滚方案的细节 ${i}。\n\n`;
const TAIL = '## 收尾\n尾部独有的词 TAILMARK 必须不进入索引。\n';

/** A Markdown summary of at least `chars` characters: a first section, filler, a recognisable last one. */
function hugeSummary(chars: number): string {
  const parts = [FIRST];
  let length = FIRST.length;
  for (let i = 0; length < chars; i++) {
    const part = filler(i);
    parts.push(part);
    length += part.length;
  }
  parts.push(TAIL);
  return parts.join('');
}

test('a summary of megabytes: only its beginning is split and indexed, the cut is logged once without its words', async (t) => {
  const { memory, lines } = await open(t);
  const summary = hugeSummary(4_000_000);
  const report = await memory.ingest({ scope, compactionId: 'c-huge', summary: [{ type: 'text', text: summary }], shadowedSeqs: [], events: [] });
  assert.equal(report.status, 'ingested');
  assert.equal(report.summaryCutFrom, summary.length, 'the cut is recorded in the report');

  const blocks = await memory.listBlocks(scope);
  const indexed = blocks.reduce((sum, b) => sum + b.body.length, 0);
  assert.ok(indexed <= MAX_SUMMARY_CHARS, `indexed ${indexed} characters`);
  assert.ok(report.summaryBlocks > 0 && report.summaryBlocks < 1_000, `${report.summaryBlocks} summary blocks`);
  assert.equal(blocks[0]!.title, '东京节点端口', 'the beginning is kept');
  assert.ok(!blocks.some((b) => b.body.includes('TAILMARK')), 'nothing past the cap is indexed');
  assert.ok((await memory.rulesBook(scope)).some((r) => r.text.includes('8443')), 'the rules of the beginning are read');

  const cuts = lines.filter((l) => /summary of \d+ characters cut to \d+/.test(l.message));
  assert.equal(cuts.length, 1, lines.map((l) => l.message).join('\n'));
  assert.equal(cuts[0]!.level, 'warn');
  assert.ok(cuts[0]!.message.includes(`summary of ${summary.length} characters cut to `), cuts[0]!.message);
  for (const { message } of lines) assert.ok(!/东京|sing-box|排查|TAILMARK/.test(message), `no summary words in the log: ${message}`);

  // The archive section is material read as the whole: it says it holds only the beginning.
  const archive = await memory.archive(scope);
  assert.equal(archive.sections.length, 1);
  assert.match(archive.sections[0]!.title, new RegExp(`只取前 \\d+ 字`));
  assert.ok(!archive.sections[0]!.body.includes('TAILMARK'));
});

test('a summary within the cap is read whole, nothing is logged about a cut', async (t) => {
  const { memory, lines } = await open(t);
  const summary = `${FIRST}${TAIL}`;
  const report = await memory.ingest({ scope, compactionId: 'c-small', summary, shadowedSeqs: [], events: [] });
  assert.equal(report.summaryCutFrom, null);
  assert.ok((await memory.listBlocks(scope)).some((b) => b.body.includes('TAILMARK')));
  assert.ok(!lines.some((l) => /cut to/.test(l.message)));
  assert.ok(!(await memory.archive(scope)).sections.some((s) => s.title.includes('只取前')));
});

test('capSummary keeps the beginning, ends at a line break when one is near, never splits a surrogate pair', () => {
  assert.deepEqual(capSummary('短摘要', 10), { text: '短摘要', cutFrom: null });
  assert.deepEqual(capSummary('第一行\n第二行\n第三行很长很长', 10), { text: '第一行\n第二行', cutFrom: 15 });
  // No line break in the latter half of what is kept: cut at the cap itself.
  assert.deepEqual(capSummary('一二三四五六七八九十十一', 10), { text: '一二三四五六七八九十', cutFrom: 12 });
  // \r\n, \r and U+2028 end lines too.
  assert.equal(capSummary('第一行\r\n第二行\r\n第三行很长', 10).text, '第一行\r\n第二行');
  assert.equal(capSummary('第一行\u2028第二行\u2028第三行很长', 10).text, '第一行\u2028第二行');
  // An emoji is two UTF-16 units: the cap never leaves half of one.
  const cut = capSummary(`${'a'.repeat(9)}😀${'b'.repeat(5)}`, 10);
  assert.equal(cut.text, 'a'.repeat(9));
  assert.ok(!cut.text.includes('\uFFFD') && !/[\uD800-\uDBFF]$/.test(cut.text));
  assert.ok(MAX_SUMMARY_CHARS >= 20_000 && MAX_SUMMARY_CHARS <= 500_000);
});
