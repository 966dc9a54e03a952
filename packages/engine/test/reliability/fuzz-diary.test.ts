// Bad input for the diary layer, fuzzed: the parser, the semantic write blocks, the anchored replace
// (pure), and the anchored edit on disk (the file is byte-identical after any failure). Each pure
// property runs 10,000 cases; the on-disk one runs ENGRAM_FUZZ_RUNS (default 600).
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { anchoredReplace } from '../../src/diary/edit.ts';
import { isDiaryError } from '../../src/diary/errors.ts';
import { formatDiary } from '../../src/diary/format.ts';
import { normaliseTags, parseDiaryText } from '../../src/diary/parse.ts';
import { parseNoteBlocks } from '../../src/diary/semantic-block.ts';
import { editEntry } from '../../src/diary/store.ts';
import { fragmentText } from './arbitraries.ts';
import { runs, tempDirs } from './helpers.ts';

const PURE = Math.max(10_000, runs(10_000));

const info = (path: string) => ({ root: 'diary' as const, path, mtimeMs: 1_700_000_000_000, size: 0, archiveFolder: '已整理', requireTag: true, timePrefix: true });
const pathArb = fc.constantFrom('2026-10-20-note.txt', 'note.md', '运维/2026-10-20-a-1a2b3c4d.txt', '已整理/x.txt', 'no-ext', '.hidden.txt', 'a/b/c/d.md');

test(`the diary parser never throws and always yields a well-formed document (${PURE} cases)`, () => {
  fc.assert(
    fc.property(fc.oneof(fragmentText(60), fc.string({ unit: 'binary', maxLength: 300 })), pathArb, (raw, path) => {
      const doc = parseDiaryText(raw, info(path));
      assert.equal(doc.raw, raw, 'raw is the input, exactly');
      assert.equal(typeof doc.title, 'string');
      assert.ok(!doc.title.includes('\n'), 'a title is one line');
      assert.match(doc.date, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(doc.time === null || /^\d{2}:\d{2}$/.test(doc.time));
      assert.ok(doc.tags.every((t) => typeof t === 'string' && t.trim() === t && t !== ''));
      assert.ok(doc.warnings.every((w) => !/could not be parsed/.test(w)), `the parser's safety net caught a bug: ${doc.warnings.join('; ')}`);
    }),
    { numRuns: PURE },
  );
});

test(`format → parse keeps a diary's title and tags (${PURE} cases)`, () => {
  const line = fc.string({ maxLength: 40 }).filter((s) => s.trim() !== '' && !/[\r\n\u2028\u2029]/.test(s));
  const tag = fc.string({ maxLength: 12 }).map((s) => s.replace(/[,，、;；\s]/g, '')).filter((s) => s !== '');
  fc.assert(
    fc.property(line, fc.array(tag, { minLength: 1, maxLength: 5 }), fragmentText(10), (title, tags, body) => {
      const clean = title.replace(/\s+/g, ' ').trim();
      fc.pre(!/^[[［【#>]/.test(clean) && !/^(?:tags?|标签)\s*[:：]/i.test(clean));
      const text = formatDiary({ time: '09:00', title: clean, summary: '摘要', body: body.replace(/^(?:tags?|标签)\s*[:：].*$/gim, ''), tags });
      const doc = parseDiaryText(text, info('2026-10-20-x.txt'));
      assert.equal(doc.title, clean);
      assert.deepEqual(doc.tags, normaliseTags(tags));
    }),
    { numRuns: PURE },
  );
});

test(`semantic write blocks: parsing never throws; every block is complete or reported (${PURE} cases)`, () => {
  fc.assert(
    fc.property(fragmentText(50), (text) => {
      const parsed = parseNoteBlocks(text);
      for (const b of parsed.blocks) {
        assert.match(b.hash, /^[0-9a-f]{40}$/);
        if (b.command === 'create') {
          assert.ok(b.title.trim() !== '', 'a create block has a title');
          assert.equal(typeof b.content, 'string');
          assert.ok(b.folder === undefined || typeof b.folder === 'string');
        } else {
          assert.equal(b.command, 'update');
          assert.ok(b.target.trim() !== '', 'an update block has a target');
          assert.equal(typeof b.replace, 'string');
        }
      }
      for (const e of parsed.errors) assert.ok(Number.isInteger(e.index) && e.message.length > 0, 'an error says what is wrong');
      if (!/DailyNote/i.test(text)) assert.equal(parsed.blocks.length + parsed.errors.length, 0);
      // The same text parses the same way twice (hashes are the idempotency keys).
      assert.deepEqual(parseNoteBlocks(text), parsed);
    }),
    { numRuns: PURE },
  );
});

test(`anchored replace: success changes exactly one located span; failure explains itself (${PURE} cases)`, () => {
  const doc = fragmentText(30);
  fc.assert(
    fc.property(doc, fc.nat(), fc.nat(), fragmentText(6), fc.integer({ min: 1, max: 20 }), fc.boolean(), (content, a, b, replacement, minTarget, fromDoc) => {
      // Half the targets are real passages of the document, half arbitrary.
      const s = content.length ? a % content.length : 0;
      const target = fromDoc ? content.slice(s, s + (b % 40)) : replacement.slice(0, 30);
      const r = anchoredReplace(content, target, replacement, minTarget);
      if (r.ok) {
        assert.ok(r.start >= 0 && r.start <= r.end && r.end <= content.length);
        assert.equal(r.content, content.slice(0, r.start) + replacement + content.slice(r.end));
        if (r.strategy === 'exact') {
          assert.equal(content.slice(r.start, r.end), target);
          assert.equal(content.indexOf(target), content.lastIndexOf(target), 'an exact match is unique');
        }
      } else {
        assert.ok(['target-too-short', 'not-found', 'ambiguous'].includes(r.code));
        assert.ok(r.message.length > 20);
        assert.equal((r as { content?: string }).content, undefined);
      }
    }),
    { numRuns: PURE },
  );
});

test(`anchored edit on disk: any failure leaves the file byte for byte as it was (${runs(600)} cases)`, async () => {
  const { diaryDir } = tempDirs('engram-fuzz-edit-');
  const bytesArb = fc.oneof(
    fragmentText(30).map((s) => Buffer.from(s, 'utf8')),
    fc.uint8Array({ maxLength: 200 }).map((u) => Buffer.from(u)), // invalid UTF-8 too
    fragmentText(20).map((s) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s.replace(/\n/g, '\r\n'), 'utf8')])),
  );
  let failures = 0;
  let successes = 0;
  await fc.assert(
    fc.asyncProperty(bytesArb, fc.nat(), fc.nat(), fragmentText(6), fc.boolean(), fc.constantFrom(0o644, 0o600, 0o664), async (bytes, a, b, replacement, fromDoc, mode) => {
      const file = join(diaryDir, 'fuzz.txt');
      writeFileSync(file, bytes);
      chmodSync(file, mode);
      const text = bytes.toString('utf8');
      const s = text.length ? a % text.length : 0;
      const target = fromDoc ? text.slice(s, s + 15 + (b % 40)) : replacement;
      try {
        const r = await editEntry(diaryDir, 'fuzz.txt', target, replacement, 15);
        successes++;
        const after = readFileSync(file, 'utf8');
        assert.ok(!r.changed || after !== text || replacement === target);
        assert.equal(statSync(file).mode & 0o777, mode, 'permissions kept');
      } catch (e) {
        failures++;
        assert.ok(isDiaryError(e), `not a DiaryError: ${String(e)}`);
        assert.ok(['target-too-short', 'target-not-found', 'target-ambiguous', 'invalid-input'].includes(e.code), e.code);
        assert.deepEqual(readFileSync(file), bytes, 'the file changed although the edit failed');
        assert.equal(statSync(file).mode & 0o777, mode);
      }
    }),
    { numRuns: runs(600) },
  );
  assert.ok(failures > 0 && successes > 0, `both outcomes were exercised (${successes} ok, ${failures} refused)`);
});
