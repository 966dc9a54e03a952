// Traditional Chinese read as simplified (text/script-fold.ts): what scripts/build-script-fold.ts
// builds now, never a change to simplified text, never a change of length, and a note and a question
// in the two scripts meeting in recall.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it, test } from 'node:test';
import { buildFoldPairs, renderFoldTable } from '../../scripts/build-script-fold.ts';
import type { Engine } from '../../src/engine.ts';
import { foldToSimplified } from '../../src/text/script-fold.ts';
import { SCRIPT_FOLD_TABLE } from '../../src/text/script-fold-table.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';
import { engineOverNotes } from '../engine/helpers.ts';

test('the committed table is the one the build script makes from the pinned OpenCC dictionaries', () => {
  const committed = readFileSync(new URL('../../src/text/script-fold-table.ts', import.meta.url), 'utf8');
  assert.equal(committed, renderFoldTable(buildFoldPairs()));
});

test('traditional characters fold to simplified ones; simplified text, and characters simplified Chinese also writes, stay', () => {
  assert.equal(foldToSimplified('這個問題在會議室討論過，上週三開會'), '这个问题在会议室讨论过，上周三开会');
  for (const text of ['这个问题在会议室讨论过', '乾隆年间', '著名的作家', '什么时候', '后来', 'Redis 超时 v2.3', '']) assert.equal(foldToSimplified(text), text, text);
  // Every pair keeps the text's length, so a span found in the folded text is a span of the text as written.
  for (const pair of SCRIPT_FOLD_TABLE.split(' ')) {
    const [t, s] = [...pair];
    assert.equal(t!.length, s!.length, pair);
    assert.equal(foldToSimplified(s!), s, `${pair}: a folded character folds no further`);
  }
});

test('the tokenizer reads a traditional text as the simplified one, and a user word written in 繁體 still holds', () => {
  const tokenizer = createTokenizer({ kind: 'auto' });
  assert.deepEqual(tokenizer.tokenize('會議室的投影機壞了'), tokenizer.tokenize('会议室的投影机坏了'));
  const withWord = createTokenizer({ kind: 'auto', userDict: ['鯤鵬雲 100 n'] });
  assert.ok(withWord.tokenize('新的鯤鵬雲主機').includes('鲲鹏云'), JSON.stringify(withWord.tokenize('新的鯤鵬雲主機')));
});

describe('a note and a question in the two scripts meet', () => {
  let engine: Engine;
  before(async () => {
    engine = await engineOverNotes([
      ['projector', '会议室投影机', '三楼会议室的投影机坏了，行政说下周二换新的，临时借用隔壁的便携投影。'],
      ['visa', '簽證續期', '工作簽證在十一月底到期，續期要帶護照、僱主證明和近三個月的薪資單，去入境處辦理。'],
      ['backup', '数据库备份', '每天凌晨两点全量备份订单库，保留十四天，备份文件放在对象存储的冷桶里。'],
    ]);
  });
  after(() => engine?.close());

  for (const [question, path] of [
    ['會議室的投影機什麼時候換新的？', '2026-10-01-projector.txt'],
    ['签证续期要带哪些材料？', '2026-10-02-visa.txt'],
    ['訂單庫的備份保留幾天？', '2026-10-03-backup.txt'],
  ] as const) {
    it(`${question} finds the note written in the other script`, async () => {
      const r = await engine.recall(question, { k: 5 });
      assert.equal(r.hits[0]?.path, path, JSON.stringify(r.explain.gate.silencedBy));
      // The explanation shows the question's words as it writes them, beside the term the index holds.
      if (question.startsWith('會議室')) assert.ok(r.tokens.some((t) => t.token === '会议室' && t.written === '會議室'), JSON.stringify(r.tokens));
      if (question.startsWith('签证')) assert.ok(r.tokens.every((t) => t.written === undefined), 'a simplified question writes its terms as they are');
      // The note is injected as written, not folded.
      assert.equal(r.hits[0]?.text.includes('簽證') || r.hits[0]?.text.includes('会议室') || r.hits[0]?.text.includes('备份'), true);
    });
  }
});
