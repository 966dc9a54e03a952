import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { anchorLength, anchoredReplace, matchLineEndings } from '../../src/diary/edit.ts';
import { splitKeepingEnds } from '../../src/diary/lines.ts';

const DOC = '[21:14] 东京节点\n\n> 摘要\n\n第一段：面板程序抢占了 443 端口，代理无法启动。\n第二段：改到 8443 后恢复正常运行。\n\nTag: a';

test('exact: replaces the unique passage and nothing else', () => {
  const r = anchoredReplace(DOC, '面板程序抢占了 443 端口，代理无法启动。', '面板程序占用 443。', 15);
  assert.ok(r.ok);
  assert.equal(r.strategy, 'exact');
  assert.equal(r.content, DOC.replace('面板程序抢占了 443 端口，代理无法启动。', '面板程序占用 443。'));
});

test('too-short targets are refused before searching (whitespace does not count)', () => {
  const r = anchoredReplace(DOC, '443 端口', 'x', 15);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.code, 'target-too-short');
  const padded = anchoredReplace(DOC, `   ${'短'.repeat(14)}   \n\n`, 'x', 15);
  assert.equal(!padded.ok && padded.code, 'target-too-short');
  assert.equal(anchorLength(' a b\tc\u3000d '), 4);
});

test('ambiguous at the first level that finds anything: the error counts the matches', () => {
  const content = `${'重复的一段很长的文字内容啊'.repeat(1)}\n中间\n${'重复的一段很长的文字内容啊'}`;
  const r = anchoredReplace(content, '重复的一段很长的文字内容啊', 'x', 10);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.code, 'ambiguous');
  assert.equal(!r.ok && r.matches, 2);
});

test('overlapping occurrences count as ambiguous', () => {
  const r = anchoredReplace('aaaaaaaaaaaaaaaaaaaa', 'aaaaaaaaaaaaaaaaaaa', 'b', 15);
  assert.equal(!r.ok && r.code, 'ambiguous');
});

test('not found', () => {
  const r = anchoredReplace(DOC, '这段文字根本不在日记里面出现过的', 'x', 15);
  assert.equal(!r.ok && r.code, 'not-found');
});

test('trailing-space level: CRLF files and trailing blanks in the file or the target', () => {
  const crlf = 'line one has words here   \r\nline two has more words\r\nend';
  const r = anchoredReplace(crlf, 'line one has words here\nline two has more words', 'NEW', 15);
  assert.ok(r.ok);
  assert.equal(r.strategy, 'trailing-space');
  assert.equal(r.content, 'NEW\r\nend');
});

test('whitespace-free level: re-wrapped or re-indented quotes find the exact original range', () => {
  const content = 'before\n第一段：面板程序\n    抢占了 443 端口，\n代理无法启动。\nafter';
  const r = anchoredReplace(content, '第一段：面板程序抢占了443端口， 代理无法启动。', '[替换]', 15);
  assert.ok(r.ok);
  assert.equal(r.strategy, 'whitespace-free');
  assert.equal(r.content, 'before\n[替换]\nafter');
  assert.equal(content.slice(r.start, r.end), '第一段：面板程序\n    抢占了 443 端口，\n代理无法启动。');
});

test('an empty replacement deletes exactly the range', () => {
  const r = anchoredReplace(DOC, '第二段：改到 8443 后恢复正常运行。', '', 15);
  assert.ok(r.ok);
  assert.equal(r.content, DOC.replace('第二段：改到 8443 后恢复正常运行。', ''));
});

test('old Mac line endings (CR alone) are a convention too: an edit and an inserted line use them', () => {
  assert.equal(matchLineEndings('a\rb\rc\r', 'x\ny'), 'x\ry');
  assert.equal(matchLineEndings('a\rb\rc\r', 'x\r\ny'), 'x\ry');
  assert.equal(splitKeepingEnds('a\rb\rc\r').newline, '\r');
  assert.equal(splitKeepingEnds('a\r\nb\nc\r').newline, '\r\n', 'a tie keeps the CRLF it had');
});

test('matchLineEndings follows the file convention', () => {
  assert.equal(matchLineEndings('a\r\nb\r\n', 'x\ny'), 'x\r\ny');
  assert.equal(matchLineEndings('a\nb\n', 'x\ny'), 'x\ny');
  assert.equal(matchLineEndings('a\r\nb\r\n', 'x\r\ny'), 'x\r\ny');
});

test('property: failure returns no content; success changes exactly one range into the replacement', () => {
  const alphabet = fc.constantFrom(...'ab 东京\n\t\r。x');
  const text = fc.array(alphabet, { maxLength: 120 }).map((cs) => cs.join(''));
  fc.assert(
    fc.property(text, fc.nat(), fc.nat({ max: 40 }), text, fc.integer({ min: 1, max: 8 }), fc.boolean(), (content, s, len, replacement, minTarget, fromContent) => {
      // Half the targets are real slices of the content (maybe perturbed), half arbitrary.
      let target: string;
      if (fromContent && content.length > 0) {
        const start = s % content.length;
        target = content.slice(start, start + len);
      } else target = replacement.slice(0, len);
      const r = anchoredReplace(content, target, replacement, minTarget);
      if (!r.ok) {
        assert.ok(!('content' in r), 'a failure carries no new content to write');
        if (r.code === 'target-too-short') assert.ok(anchorLength(target) < minTarget);
        return;
      }
      assert.ok(anchorLength(target) >= minTarget);
      assert.ok(r.start >= 0 && r.start <= r.end && r.end <= content.length);
      assert.equal(r.content, content.slice(0, r.start) + replacement + content.slice(r.end));
      assert.ok(r.content.includes(replacement));
      // The replaced range matches the target under the strategy's normalisation.
      const range = content.slice(r.start, r.end);
      if (r.strategy === 'exact') assert.equal(range, target);
      assert.equal(range.replace(/\s/gu, ''), target.replace(/\s/gu, ''));
    }),
    { numRuns: 2000 },
  );
});

test('property: a slice that occurs once is always found exactly', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), fc.string({ minLength: 20, maxLength: 40 }), fc.string({ maxLength: 80 }), (pre, mid, post) => {
      const content = pre + mid + post;
      fc.pre(content.indexOf(mid) === pre.length && content.lastIndexOf(mid) === pre.length);
      fc.pre(anchorLength(mid) >= 15);
      const r = anchoredReplace(content, mid, '<R>', 15);
      assert.ok(r.ok);
      assert.equal(r.strategy, 'exact');
      assert.equal(r.content, `${pre}<R>${post}`);
    }),
    { numRuns: 500 },
  );
});
