import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { diaryFileName, formatDiary, formatMarkdown, shortId, slugify } from '../../src/diary/format.ts';
import { isTagLine, parseAnchorLine, parseDiaryText, parseFileName, type DiaryParseInfo } from '../../src/diary/parse.ts';

const info = (path: string): DiaryParseInfo => ({
  root: 'diary',
  path,
  mtimeMs: 0,
  size: 0,
  archiveFolder: '已整理',
  requireTag: true,
  timePrefix: true,
});

// Characters a diary is made of, including the ones that carry meaning in the format.
const CHARS = [...'abcXYZ019东京节点端口记忆，。：、；!?-_#>[]:()"\'/\\*·… \t'];
const word = fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));
const line = fc.array(word, { maxLength: 6 }).map((ws) => ws.join(' '));
const singleLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

const timeArb = fc.option(
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  { nil: null },
);
const titleArb = line.map(singleLine).filter((t) => t !== '');
const summaryArb = fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('\n').trim()).filter((s) => s !== '');
const bodyArb = fc
  .array(fc.oneof(line, fc.constant('')), { maxLength: 8 })
  .map((ls) => ls.join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd());
const tagArb = fc
  .array(fc.constantFrom(...'ab东京端口 -_#.19'), { minLength: 1, maxLength: 8 })
  .map((cs) => cs.join('').trim())
  .filter((t) => t !== '');
const tagsArb = fc.uniqueArray(tagArb, { maxLength: 6 });

const lastNonEmptyLine = (s: string): string => s.split('\n').filter((l) => l.trim() !== '').pop() ?? '';

test('formatDiary writes the documented layout', () => {
  const text = formatDiary({ time: '21:14', title: '东京节点', summary: '一句话', body: '正文', tags: ['a', 'b'] });
  assert.equal(text, '[21:14] 东京节点\n\n> 一句话\n\n正文\n\nTag: a, b\n');
});

test('formatDiary leaves out what is missing and collapses a multi-line title', () => {
  assert.equal(formatDiary({ time: null, title: ' a \n b ', summary: '', body: '', tags: [] }), 'a b\n');
  assert.equal(formatDiary({ time: '9:05', title: 't' }), '[09:05] t\n');
  assert.equal(formatDiary({ time: '99:00', title: 't' }), 't\n', 'an invalid time writes no anchor');
});

test('property: parse(formatDiary(x)) gives back x', () => {
  fc.assert(
    fc.property(timeArb, titleArb, summaryArb, bodyArb, tagsArb, (time, title, summary, body, tags) => {
      // Preconditions of the format (documented): an anchorless title must not look like an anchor or
      // a quote; without tags the body's last line must not look like a Tag line.
      fc.pre(time !== null || (parseAnchorLine(title) === null && !/^\s{0,3}>/.test(title)));
      fc.pre(tags.length > 0 || !isTagLine(lastNonEmptyLine(body)));
      const text = formatDiary({ time, title, summary, body, tags });
      const d = parseDiaryText(text, info('x.txt'));
      assert.equal(d.time, time);
      assert.equal(d.title, title);
      assert.equal(d.summary, summary);
      assert.equal(d.body, body);
      assert.deepEqual(d.tags, tags);
      const expectedWarnings = (time === null ? 1 : 0) + (tags.length === 0 ? 1 : 0);
      assert.equal(d.warnings.length, expectedWarnings, d.warnings.join('\n'));
    }),
    { numRuns: 500 },
  );
});

test('property: parse(formatMarkdown(x)) gives back x', () => {
  const dateArb = fc
    .tuple(fc.integer({ min: 1990, max: 2090 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
    .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  const idArb = fc.option(fc.stringMatching(/^[0-9a-f]{8,32}$/), { nil: null });
  fc.assert(
    fc.property(idArb, timeArb, dateArb, titleArb, summaryArb, bodyArb, tagsArb, (id, time, date, title, summary, body, tags) => {
      fc.pre(!isTagLine(lastNonEmptyLine(body)));
      const text = formatMarkdown({ id, time, date, title, summary, body, tags });
      const d = parseDiaryText(text, info('x.md'));
      assert.equal(d.title, title);
      assert.equal(d.summary, summary);
      assert.equal(d.body, body);
      assert.deepEqual(d.tags, tags);
      assert.equal(d.date, date);
      assert.equal(d.time, time);
      assert.equal(d.embeddedId, id);
    }),
    { numRuns: 300 },
  );
});

test('diaryFileName: YYYY-MM-DD-<slug>-<id8>.txt, CJK kept, separators and illegal characters gone', () => {
  const name = diaryFileName('2026-11-01', '东京节点 443/端口: 处置?*<>|"\\', '1A2B3C4D-0000-4000-8000-000000000000');
  assert.equal(name, '2026-11-01-东京节点-443-端口-处置-1a2b3c4d.txt');
  assert.equal(diaryFileName('2026-11-01', '   ', 'abcdef0123'), '2026-11-01-note-abcdef01.txt');
  assert.equal(diaryFileName('2026-11-01', 't', 'x', 'md').endsWith('.md'), true);
  assert.throws(() => diaryFileName('2026-13-01', 't', 'x'), { code: 'invalid-input' });
});

test('shortId: hex ids keep their prefix, other ids hash to 8 hex', () => {
  assert.equal(shortId('0F3C0A4E-8B7D-4C1E-9A2B-3C4D5E6F7A8B'), '0f3c0a4e');
  assert.match(shortId('not-hex-id'), /^[0-9a-f]{8}$/);
  assert.equal(shortId('not-hex-id'), shortId('not-hex-id'));
});

test('property: diaryFileName is safe, bounded and reads back its date and id', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.uuid(), (title, id) => {
      const name = diaryFileName('2026-11-01', title, id);
      assert.doesNotMatch(name, /[\u0000-\u001f\u007f<>:"/\\|?*]/);
      assert.ok(Buffer.byteLength(name, 'utf8') <= 200, `${Buffer.byteLength(name)} bytes`);
      assert.equal(name, name.normalize('NFC'));
      assert.doesNotMatch(name, /[\ud800-\udfff]/u, 'no lone surrogates');
      const back = parseFileName(name);
      assert.equal(back.date, '2026-11-01');
      assert.equal(back.id, id.replace(/-/g, '').slice(0, 8));
    }),
    { numRuns: 500 },
  );
});

test('slugify bounds long titles and never returns an empty slug', () => {
  assert.equal(Array.from(slugify('字'.repeat(500))).length, 40);
  assert.equal(slugify('...'), 'note');
  assert.equal(slugify('a - b'), 'a-b');
});
