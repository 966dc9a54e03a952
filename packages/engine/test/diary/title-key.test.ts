import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanInline, PLAIN_TITLE, titleKey } from '../../src/diary/sanitize.ts';

const slowKey = (title: string) => cleanInline(title.normalize('NFKC')).text.replace(/\s+/g, ' ').trim();

test('titleKey: the fast path for plain titles gives exactly the full NFKC + clean key', () => {
  let plain = 0;
  for (let cp = 0; cp <= 0xffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (!PLAIN_TITLE.test(ch)) continue;
    plain++;
    assert.equal(titleKey(`a${ch}b`), slowKey(`a${ch}b`), `U+${cp.toString(16)}`);
  }
  assert.ok(plain > 27_000, `the set covers the CJK ideographs (${plain})`);
  // Mixed strings, spaces at the ends and in runs, and titles that need the slow path.
  for (const t of ['  东京节点  443 端口 ', '大阪机房：迁移', 'ＡＢＣ 节点', 'a\u200bb', '東京\u3000节点', 'x\u2026y', '〶 记', 'plain title']) assert.equal(titleKey(t), slowKey(t), JSON.stringify(t));
  assert.equal(PLAIN_TITLE.test('大阪机房：迁移'), false, 'a full-width colon takes the full path');
});
