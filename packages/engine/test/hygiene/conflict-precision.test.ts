// The conflict hint on 50 realistic pairs of memories (fixtures/conflict-pairs.json: Chinese, some
// with English and code; half contradict an older claim, half differ only in numbers of other
// occasions or other things). A hint counts as right only when the pair truly conflicts and the
// hint names the conflicting claim with both its values. Each pair is written among a dozen
// unrelated older memories, which must draw no hint either.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { assessWrite, type HygieneCandidate, type HygieneSettings, type WriteAssessment } from '../../src/hygiene/assess.ts';
import { distinctiveByIdf } from '../../src/hygiene/gate.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

interface Memory {
  title: string;
  body: string;
  tags: string[];
}
interface Pair {
  id: string;
  conflict: boolean;
  values?: [string, string];
  old: Memory;
  new: Memory;
}

const { pairs } = JSON.parse(readFileSync(new URL('./fixtures/conflict-pairs.json', import.meta.url), 'utf8')) as { pairs: Pair[] };
const tokenizer = createTokenizer({ kind: 'auto' });
const text = { tokenize: (s: string) => tokenizer.tokenize(s), distinctive: distinctiveByIdf };
const ON: HygieneSettings = { enabled: true, minChars: 12, duplicateOverlap: 0.9, conflictWarning: true };

let n = 0;
const stored = (m: Memory): HygieneCandidate => {
  const docId = `d${String(++n).padStart(15, '0')}`;
  return { docId, title: m.title, summary: '', body: m.body, tags: m.tags, date: '2026-10-01', path: `2026-10-01-${docId}.txt` };
};
const BACKGROUND: Memory[] = [
  { title: '学做红烧肉', body: '糖色炒得有点过,下次小火慢炒 3 分钟。', tags: ['做饭'] },
  { title: '阳台种番茄', body: '叶子背面有蚜虫,用稀释的肥皂水喷了 2 次。', tags: ['种植'] },
  { title: '练习吉他和弦', body: '食指往品丝靠一点,每天练 15 分钟。', tags: ['吉他'] },
  { title: '复习线性代数', body: '用对称矩阵的谱分解理解了主成分分析。', tags: ['数学'] },
  { title: '键盘轴体选择', body: '办公室用静音红轴,家里用茶轴,键帽换了 PBT。', tags: ['键盘'] },
  { title: '搬家清单', body: '提前预约货车,打包书籍和厨房用品,通知物业。', tags: ['搬家'] },
  { title: '代码评审习惯', body: '先读测试再读实现,超过 400 行的改动要求拆分。', tags: ['评审习惯'] },
  { title: 'git 提交规范', body: '提交信息写 area: what and why,一次提交只做一件事。', tags: ['git'] },
];
const conflictsOf = (a: WriteAssessment) => (a.verdict === 'fragment' ? [] : a.conflicts);

test('the conflict hint on 50 note pairs: precision ≥ 0.9, each hint names the claim and both values', () => {
  let fired = 0;
  let right = 0;
  let found = 0;
  const wrong: string[] = [];
  const missed: string[] = [];
  for (const pair of pairs) {
    const old = stored(pair.old);
    const background = BACKGROUND.map(stored);
    const assessment = assessWrite({ ...pair.new, summary: '' }, [old, ...background], ON, text);
    for (const hint of conflictsOf(assessment)) {
      fired++;
      const isRight = pair.conflict && hint.docId === old.docId && pair.values!.every((v) => hint.reason.includes(v));
      if (isRight) right++;
      else wrong.push(`${pair.id} → ${hint.title}: ${hint.reason}`);
    }
    if (pair.conflict && conflictsOf(assessment).some((h) => h.docId === old.docId)) found++;
    else if (pair.conflict) missed.push(pair.id);
  }
  const conflicting = pairs.filter((p) => p.conflict).length;
  const precision = fired === 0 ? 0 : right / fired;
  const recall = found / conflicting;
  console.log(`# conflict hint: ${pairs.length} pairs (${conflicting} conflicting), ${fired} hints, ${right} right: precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)}`);
  for (const line of wrong) console.log(`# wrong: ${line}`);
  if (missed.length > 0) console.log(`# missed: ${missed.join(' ')}`);
  assert.ok(precision >= 0.9, `precision ${precision.toFixed(2)} < 0.9:\n${wrong.join('\n')}`);
  // A hint that never fires is precise and useless: most real contradictions are still named.
  assert.ok(recall >= 0.6, `recall ${recall.toFixed(2)}: missed ${missed.join(' ')}`);
});
