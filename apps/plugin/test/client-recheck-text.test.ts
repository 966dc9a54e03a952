// The look-again line's words: Chinese unless the host page is in English, and the skipped model
// rewrite said only when the local search was strong enough to skip it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recheckText } from '../src/client/recheck-text.ts';

test('found, not found and the skipped rewrite, in Chinese and in English', () => {
  const found = { found: true, skippedRewrite: true, blocks: [{ title: 'a' }, { title: 'b' }] };
  assert.match(recheckText(found, 'zh').note, /找到 2 段相关内容/);
  assert.match(recheckText(found, 'zh').skipped ?? '', /跳过了辅助模型的查询改写/);
  assert.match(recheckText(found, undefined).note, /找到 2 段/, 'no language known: Chinese');
  assert.match(recheckText(found, 'en').note, /found 2 related passages/);
  assert.match(recheckText(found, 'en').skipped ?? '', /query rewrite was skipped/);
  assert.equal(recheckText({ ...found, skippedRewrite: false }, 'zh').skipped, null);
  const none = recheckText({ found: false, skippedRewrite: false, blocks: [] }, 'en');
  assert.match(none.note, /nothing strongly related/);
  assert.equal(none.skipped, null);
  assert.equal(recheckText({ found: true, blocks: [{ title: 'a' }] }, 'zh').skipped, null, 'an older host without the field: nothing said');
});
