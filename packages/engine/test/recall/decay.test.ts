import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { diary, openTestEngine, tempDirs } from '../engine/helpers.ts';

// Age orders notes of about equal relevance; it must not outweigh a clear difference in relevance.
// A memory is asked about its whole past (a conversation months ago), and over real mail threads
// spanning eleven months every decay that could cost more than 10 % of a score lost questions
// (docs/benchmarks.md, English recall).
test('time decay: the newer of two about equally relevant notes ranks first, but a clearly better match eleven months old still outranks yesterday’s', async () => {
  const dirs = tempDirs();
  const notes: Record<string, string> = {
    // One summary, bodies of the same length that the question does not touch, different days.
    '2025-12-01-printer-old.txt': diary('09:00', '打印机墨盒', '三楼打印机的墨盒型号是 HP 680。', '行政处周一补货,备用的放在前台左手边的柜子里。', ['打印机']),
    '2026-10-31-printer-new.txt': diary('09:00', '打印机墨盒', '三楼打印机的墨盒型号是 HP 680。', '财务室周五盘点,剩下的收在会议室右侧的抽屉里。', ['打印机']),
    // The old note names more of the question than the new one does.
    '2025-12-01-visa-old.txt': diary('09:00', '签证材料清单', '办理日本签证需要在职证明、银行流水和护照复印件。', '日本签证材料:在职证明、银行流水、护照复印件,送签前一周准备好。', ['签证']),
    '2026-10-31-visa-new.txt': diary('09:00', '出差准备', '下个月出差的签证要准备在职证明和银行流水。', '出差前去人事处开在职证明,去银行打印流水,顺便确认报销流程。', ['出差']),
  };
  for (const [path, text] of Object.entries(notes)) writeFileSync(join(dirs.diaryDir, path), text);
  const engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' } });
  try {
    await engine.index({ full: true });
    const equal = await engine.recall('三楼打印机的墨盒型号', { gates: 'off' });
    const printers = equal.hits.filter((h) => h.title === '打印机墨盒');
    assert.equal(printers.length, 2, `both printer notes are found: ${JSON.stringify(equal.hits.map((h) => [h.path, h.score, h.channels]))}`);
    const [newer, older] = [printers.find((h) => h.path.includes('printer-new'))!, printers.find((h) => h.path.includes('printer-old'))!];
    const near = newer.channels.lexical!.score / older.channels.lexical!.score;
    // About equally relevant: the newer one a little below the older, so that only its age can put it first.
    assert.ok(near > 0.97 && near <= 1, `lexical ratio new / old ${near.toFixed(3)}`);
    assert.equal(printers[0], newer, 'at about equal relevance the newer note ranks first');
    assert.ok(printers[0]!.channels.decay > printers[1]!.channels.decay);

    const r = await engine.recall('日本签证需要在职证明和银行流水吗', { gates: 'off' });
    const old = r.hits.find((h) => h.path.includes('visa-old'));
    const fresh = r.hits.find((h) => h.path.includes('visa-new'));
    assert.ok(old?.channels.lexical && fresh?.channels.lexical, 'both visa notes are lexical matches');
    const ratio = old.channels.lexical.score / fresh.channels.lexical.score;
    // The case this test is about: the old note is the better match by a clear margin, not by a mile.
    assert.ok(ratio > 1.15 && ratio < 1.8, `lexical ratio old / new ${ratio.toFixed(2)}`);
    assert.ok(r.hits.indexOf(old) < r.hits.indexOf(fresh), 'the better match ranks first despite its age');
  } finally {
    engine.close();
  }
});
