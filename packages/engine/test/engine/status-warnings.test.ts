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
