import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { localTimeString } from '../../src/diary/dates.ts';
import { isDiaryError } from '../../src/diary/errors.ts';
import { convertLegacyDocument, deriveTagsFromTitle, migrateLegacy, MIGRATION_REPORT, provenanceFooter } from '../../src/diary/migrate.ts';
import { parseDiaryText, parseFileName } from '../../src/diary/parse.ts';
import { scanRoots } from '../../src/diary/store.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'engram-migrate-'));
const put = (root: string, rel: string, content: string) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
};
const parse = (raw: string, path: string) =>
  parseDiaryText(raw, { root: 'diary', path, mtimeMs: 0, size: 0, archiveFolder: '已整理', requireTag: true, timePrefix: true });

const LEGACY = [
  '---',
  'id: 0f3c0a4e-8b7d-4c1e-9a2b-3c4d5e6f7a8b',
  'title: 东京节点 443 端口处置',
  'description: 面板抢占 443，改 8443。',
  'created_at: 2026-11-01T21:14:00',
  'tags: [东京节点, 443 端口]',
  'source_paths:',
  '  - sessions/a.jsonl',
  '  - sessions/b.jsonl',
  '  - sessions/c.jsonl',
  '  - sessions/d.jsonl',
  '---',
  '',
  '# 东京节点 443 端口处置',
  '',
  '正文第一段。',
  '',
  'Tag: 旧标签',
  '',
].join('\n');

test('convertLegacyDocument sinks the metadata into the diary text', () => {
  const c = convertLegacyDocument(LEGACY, 'documents/active/x.md', 0, '已整理');
  assert.ok(c.ok);
  assert.equal(c.fileName, '2026-11-01-东京节点-443-端口处置-0f3c0a4e.txt');
  assert.deepEqual(c.folder, []);
  const d = parse(c.content, c.fileName);
  assert.equal(d.title, '东京节点 443 端口处置');
  assert.equal(d.time, '21:14');
  assert.equal(d.date, '2026-11-01');
  assert.equal(d.summary, '面板抢占 443，改 8443。');
  assert.deepEqual(d.tags, ['东京节点', '443 端口', '旧标签']);
  assert.equal(d.embeddedId, '0f3c0a4e');
  assert.deepEqual(d.warnings, []);
  // Body kept, duplicate H1 and old Tag line gone, provenance footer (first 3 sources) at the end.
  assert.ok(d.body.startsWith('正文第一段。'));
  assert.ok(!d.body.includes('# 东京节点'));
  assert.ok(!/^Tag:/m.test(d.body));
  assert.ok(d.body.includes('0f3c0a4e-8b7d-4c1e-9a2b-3c4d5e6f7a8b'));
  assert.ok(d.body.includes('sessions/c.jsonl'));
  assert.ok(!d.body.includes('sessions/d.jsonl'));
  assert.ok(!c.content.includes('---\n'), 'no front matter in the diary');
});

test('convertLegacyDocument: no tags → derived from the title; archived → archive folder; no time → no invented anchor', () => {
  const md = '---\ntitle: 使用 sing-box 配置 Reality 的步骤\ndate: 2025-03-04\n---\n正文';
  const c = convertLegacyDocument(md, 'documents/archived/y.md', 0, '已整理');
  assert.ok(c.ok);
  assert.deepEqual(c.folder, ['已整理']);
  assert.equal(c.tagsDerived, true);
  assert.equal(c.anchored, false);
  const d = parse(c.content, `已整理/${c.fileName}`);
  assert.equal(d.time, null);
  assert.equal(d.date, '2025-03-04');
  assert.ok(d.tags.includes('sing-box') && d.tags.includes('Reality'));
  assert.ok(d.tags.every((t) => d.title.includes(t)), 'derived tags are grounded in the title');
  assert.equal(d.archived, true);
});

test('convertLegacyDocument: no date at all → mtime gives date and time', () => {
  const mtime = new Date(2024, 6, 8, 9, 10).getTime();
  const c = convertLegacyDocument('---\ntitle: 无日期\n---\n正文', 'z.md', mtime, '已整理');
  assert.ok(c.ok);
  assert.ok(c.fileName.startsWith('2024-07-08-无日期-'));
  assert.equal(parse(c.content, c.fileName).time, localTimeString(mtime));
});

test('convertLegacyDocument refuses files without front matter', () => {
  const c = convertLegacyDocument('# just markdown', 'a.md', 0, '已整理');
  assert.equal(c.ok, false);
});

test('deriveTagsFromTitle: specific Latin names first, CJK segments split at function words', () => {
  assert.deepEqual(deriveTagsFromTitle('东京节点的443端口与sing-box冲突'), ['443', 'sing-box', '东京节点', '端口', '冲突']);
  const long = deriveTagsFromTitle('东京节点端口处置共管服务调整');
  assert.ok(long.length >= 2 && long.every((t) => Array.from(t).length <= 8));
  assert.ok(deriveTagsFromTitle('a b c d e f g h i j kk ll mm nn oo pp qq').length <= 6);
  assert.deepEqual(deriveTagsFromTitle(''), []);
});

test('provenanceFooter lists at most three sources', () => {
  const f = provenanceFooter('id1', ['a', 'b', 'c', 'd']);
  assert.ok(f.includes('id1') && f.includes('a; b; c') && !f.includes('; d') && f.includes('4'));
  assert.equal(provenanceFooter('', []), '');
});

test('migrateLegacy: migrates a corpus, writes the report, and is idempotent (hand edits survive)', async () => {
  const src = tmp();
  const dst = join(tmp(), 'diaries');
  put(src, 'documents/active/a.md', LEGACY);
  put(src, 'documents/active/b.md', '---\ntitle: 第二篇\ndescription: d\ntags: [x]\ncreated_at: 2026-01-02\n---\n正文');
  put(src, 'documents/archived/c.md', '---\ntitle: 归档篇\ndescription: d\ntags: [y]\ncreated_at: 2025-01-02T03:04\n---\n正文');
  put(src, 'documents/active/plain.md', 'no front matter here');
  put(src, 'documents/index.json', '{}');
  utimesSync(join(src, 'documents/active/b.md'), new Date(), new Date());

  const first = await migrateLegacy(src, dst);
  assert.equal(first.migrated.length, 3);
  assert.deepEqual(first.skipped.map((s) => s.src), ['documents/active/plain.md']);
  const report = JSON.parse(readFileSync(join(dst, MIGRATION_REPORT), 'utf8'));
  assert.equal(report.migrated.length, first.migrated.length);
  assert.ok(first.migrated.some((m) => m.dst.startsWith('已整理/')));
  for (const m of first.migrated) assert.ok(parseFileName(m.dst.split('/').pop()!).date !== null);

  // A hand edit after migration must survive a second run.
  const edited = first.migrated[0]!.dst;
  writeFileSync(join(dst, edited), 'hand edited');
  const second = await migrateLegacy(src, dst);
  assert.equal(second.migrated.length, 0);
  assert.equal(second.skipped.filter((s) => s.reason.startsWith('destination exists')).length, first.migrated.length);
  assert.equal(readFileSync(join(dst, edited), 'utf8'), 'hand edited');

  // With the legacy corpus still configured, every migrated diary is either indexed or skipped as a
  // title duplicate of its legacy original — never both, never neither.
  const scan = await scanRoots({ diaryDir: dst, legacyDir: src, archiveFolder: '已整理', requireTag: true, timePrefix: true });
  const titles = scan.docs.map((d) => d.title);
  assert.equal(new Set(titles).size, titles.length, 'no title appears twice across the two roots');
  for (const m of first.migrated) {
    const indexed = scan.docs.some((d) => d.root === 'diary' && d.path === m.dst);
    const deduped = scan.skipped.some((s) => s.path === m.dst && s.reason.startsWith('duplicate title'));
    assert.ok(indexed !== deduped, m.dst);
  }
  // Scanned on their own, the untouched migrated diaries warn about nothing except an honestly
  // missing time anchor (the source had a date but no time of day).
  const alone = await scanRoots({ diaryDir: dst, archiveFolder: '已整理', requireTag: true, timePrefix: true });
  const untouched = first.migrated.filter((m) => m.dst !== edited);
  assert.ok(untouched.length >= 2);
  for (const m of untouched) {
    const d = alone.docs.find((x) => x.path === m.dst);
    assert.ok(d, m.dst);
    const expected = m.anchored ? [] : [`${m.dst}:1: missing [HH:MM] anchor`];
    assert.deepEqual(d.warnings, expected);
  }
  assert.ok(readdirSync(dst).includes(MIGRATION_REPORT));
});

test('migrateLegacy: a missing source is a typed error', async () => {
  await assert.rejects(migrateLegacy(join(tmp(), 'nope'), tmp()), (e) => isDiaryError(e, 'not-found'));
});

test('migrateLegacy: two notes of one day and title whose ids share their first characters both arrive; a second run writes neither again', async () => {
  // Their file id is the first eight hex-looking characters of the legacy id: here its date.
  const src = tmp();
  const dst = join(tmp(), 'diaries');
  const note = (id: string, body: string) => `---\nid: ${id}\ntitle: 会议记录\ndescription: 周会\ntags: [会议]\ncreated_at: 2024-03-15T10:00\n---\n${body}`;
  put(src, 'documents/active/a.md', note('20240315-01', '甲方确认了需求文档第三版。'));
  put(src, 'documents/active/b.md', note('20240315-02', '乙方的排期推迟到下周三。'));
  const first = await migrateLegacy(src, dst);
  assert.equal(first.migrated.length, 2, JSON.stringify(first.skipped));
  const texts = first.migrated.map((m) => readFileSync(join(dst, m.dst), 'utf8'));
  assert.ok(texts.some((t) => t.includes('第三版')) && texts.some((t) => t.includes('下周三')));
  const second = await migrateLegacy(src, dst);
  assert.equal(second.migrated.length, 0);
  assert.equal(readdirSync(dst).filter((f) => f.endsWith('.txt')).length, 2);
});
