import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTestEngine, tempDirs } from './helpers.ts';

// `status` on an engine whose index is not loaded yet (every one-shot CLI command) reads only the
// warnings column; it must report the same file warnings, in the same order, as a loaded engine.
test('status lists the same file warnings before and after the index is loaded', async () => {
  const dirs = tempDirs();
  writeFileSync(join(dirs.diaryDir, '2026-10-01-clean.txt'), '[09:00] 东京节点\n\n> 摘要一句。\n\n正文写了 443 端口的处置。\n\nTag: 东京\n');
  writeFileSync(join(dirs.diaryDir, '2026-10-02-no-anchor.txt'), '没有时间锚点的一篇日记,正文里提到大阪机房。\n');
  writeFileSync(join(dirs.diaryDir, '2026-10-03-no-tags.txt'), '[10:00] 大阪机房\n\n正文只有一段,没有摘要也没有标签。\n');
  const first = await openTestEngine(dirs);
  first.close();
  const engine = await openTestEngine(dirs);
  try {
    const before = await engine.status();
    await engine.list(); // loads the index
    const after = await engine.status();
    const fileWarnings = (w: string[]) => w.filter((x) => /no-anchor|no-tags/.test(x));
    assert.ok(fileWarnings(before.warnings).length >= 2, `both damaged files warn: ${JSON.stringify(before.warnings)}`);
    assert.deepEqual(fileWarnings(before.warnings), fileWarnings(after.warnings));
    assert.ok(!before.warnings.some((x) => /clean/.test(x)), 'a complete file has no warning');
  } finally {
    engine.close();
  }
});

// After an upgrade that changes the terms (text/tokenizer-check.ts), the first command that syncs
// re-tokenises every note: at 50,000 notes over a minute. The open reports that pass's progress
// (the CLI draws it on a terminal) instead of leaving the user in silence.
test('an open whose sync re-tokenises every note reports the pass\'s progress', async () => {
  const { createClient } = await import('@libsql/client');
  const dirs = tempDirs();
  for (let i = 0; i < 12; i++) writeFileSync(join(dirs.diaryDir, `2026-10-${String(i + 1).padStart(2, '0')}-n${i}.txt`), `[09:00] 节点 ${i}\n\n东京节点第 ${i} 次巡检,端口 ${400 + i}。\n\nTag: 东京\n`);
  (await openTestEngine(dirs)).close();
  const seen: { phase: string; done: number; total: number }[] = [];
  const quiet = await openTestEngine(dirs, { onSyncProgress: (p) => seen.push(p) });
  quiet.close();
  assert.ok(!seen.some((p) => p.phase === 'store' && p.total > 0), `nothing to re-index, nothing stored: ${JSON.stringify(seen)}`);
  // The index as an older tokenizer left it.
  const db = createClient({ url: `file:${join(dirs.dataDir, 'engram.db')}` });
  await db.execute("UPDATE index_manifest SET tokenizer = 'jieba+terms1'");
  db.close();
  const engine = await openTestEngine(dirs, { onSyncProgress: (p) => seen.push(p) });
  try {
    const stored = seen.filter((p) => p.phase === 'store');
    assert.equal(stored.at(-1)?.total, 12, `every note re-tokenised, with its count: ${JSON.stringify(stored)}`);
    assert.equal(stored.at(-1)?.done, 12);
    const status = await engine.status();
    assert.equal(status.tokenizer.mismatch, false, 'the sync brought the index to this tokenizer');
  } finally {
    engine.close();
  }
});

// The console's Index page once titled "警告 (500)" over 40,000 warnings: the list is capped, so the
// counts come from the whole set, grouped by kind, and the optional gaps (a missing summary: the
// engine uses the body's beginning) are told apart from what a person can fix.
test('status counts every warning by kind, past the capped list, and tells optional gaps from fixable ones', async () => {
  const dirs = tempDirs();
  for (let i = 0; i < 300; i++) writeFileSync(join(dirs.diaryDir, `2026-10-01-n${i}.txt`), `[09:00] 笔记 ${i}\n\n正文第 ${i} 篇,没有摘要也没有标签。\n`);
  const engine = await openTestEngine(dirs);
  try {
    await engine.list(); // loads the index
    const s = await engine.status();
    assert.equal(s.warnings.length, 500, 'the list itself stays capped');
    const kinds = new Map(s.warningSummary.kinds.map((k) => [k.message.replace(/\d+/g, 'N'), k]));
    const summary = kinds.get('missing "> summary" paragraph; using the first N characters of the body');
    const tag = kinds.get('missing "Tag: …" line at the end');
    assert.equal(summary?.count, 300);
    assert.equal(summary?.optional, true);
    assert.equal(tag?.count, 300);
    assert.equal(tag?.optional, false);
    assert.equal(s.warningSummary.total, 600);
    assert.equal(s.warningSummary.fixable, 300);
  } finally {
    engine.close();
  }
});
