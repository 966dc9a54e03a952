import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { anchoredReplace, matchLineEndings } from '../../src/diary/edit.ts';
import { isDiaryError } from '../../src/diary/errors.ts';
import { docIdFor } from '../../src/diary/ids.ts';
import { parseDiaryText, parseFileName } from '../../src/diary/parse.ts';
import {
  archiveEntry,
  composeEntry,
  createEntry,
  editEntry,
  parseResidentMemories,
  pathsBeforeArchive,
  restoreEntry,
  scanRoots,
  withCollisionSuffix,
} from '../../src/diary/store.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'engram-store-'));
const put = (root: string, rel: string, content: string | Buffer) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
};
const diary = (title: string, tags = 'a, b') => `[10:00] ${title}\n\n> 摘要 ${title}\n\n正文 ${title}\n\nTag: ${tags}\n`;
const scanOpts = (diaryDir: string, legacyDir = '') => ({ diaryDir, legacyDir, archiveFolder: '已整理', requireTag: true, timePrefix: true });

/** Every file under `dir`, recursively, with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.set(r, readFileSync(join(dir, r)).toString('base64'));
    }
  };
  walk('');
  return out;
}

// ------------------------------------------------------------------------------------------ scan

test('scanRoots reads diaries recursively: categories, archive, and skips what is not a diary', async () => {
  const d = tmp();
  put(d, '2026-01-01-根-11111111.txt', diary('根'));
  put(d, '工作/项目/2026-01-02-深.txt', diary('深'));
  put(d, '已整理/工作/2026-01-03-旧.txt', diary('旧'));
  put(d, '笔记.md', '---\ntitle: 笔记\ndescription: d\ntags: [x]\n---\nbody');
  put(d, '.hidden.txt', diary('隐藏'));
  put(d, '.git/x.txt', diary('git'));
  put(d, '.engram-tmp-1-abc.tmp', 'partial');
  put(d, 'image.png', Buffer.from([0x89, 0x50]));
  put(d, '_migration-report.json', '{}');
  put(d, 'bad.txt', Buffer.from([0x5b, 0xff, 0xfe, 0x00, 0x41]));
  put(d, 'latin1.txt', Buffer.from('caf\xe9', 'latin1'));
  put(d, 'utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(diary('十六位'), 'utf16le')]));
  symlinkSync(join(d, '工作'), join(d, 'link-dir'));

  const r = await scanRoots(scanOpts(d));
  const paths = r.docs.map((x) => x.path).sort();
  assert.deepEqual(paths, ['2026-01-01-根-11111111.txt', 'utf16.txt', '工作/项目/2026-01-02-深.txt', '已整理/工作/2026-01-03-旧.txt', '笔记.md'].sort());
  const byTitle = new Map(r.docs.map((x) => [x.title, x]));
  assert.equal(byTitle.get('深')!.category, '工作/项目');
  assert.equal(byTitle.get('旧')!.archived, true);
  assert.equal(byTitle.get('旧')!.category, '工作');
  assert.equal(byTitle.get('根')!.embeddedId, '11111111');
  assert.equal(byTitle.get('十六位')!.summary, '摘要 十六位');
  assert.ok(r.docs.every((x) => x.root === 'diary' && x.size > 0 && x.mtimeMs > 0));
  const skippedPaths = new Map(r.skipped.map((s) => [s.path, s.reason]));
  assert.match(skippedPaths.get('bad.txt')!, /binary|encoding/);
  assert.match(skippedPaths.get('latin1.txt')!, /UTF-8/);
  assert.match(skippedPaths.get('link-dir')!, /symbolic link/);
  assert.equal(r.resident.length, 0);
});

test('scanRoots: raw is the file exactly as readFile(utf8) returns it (BOM kept), fields parse past the BOM', async () => {
  const d = tmp();
  put(d, 'bom.txt', `\uFEFF${diary('带BOM')}`);
  const r = await scanRoots(scanOpts(d));
  const doc = r.docs[0]!;
  assert.equal(doc.raw, readFileSync(join(d, 'bom.txt'), 'utf8'));
  assert.equal(doc.title, '带BOM');
  assert.equal(doc.time, '10:00');
});

test('scanRoots: missing diary dir is a typed error, or is created on request', async () => {
  const missing = join(tmp(), 'diaries');
  await assert.rejects(scanRoots(scanOpts(missing)), (e) => isDiaryError(e, 'diary-dir-missing'));
  await assert.rejects(scanRoots(scanOpts('')), (e) => isDiaryError(e, 'diary-dir-missing'));
  const r = await scanRoots({ ...scanOpts(missing), createIfMissing: true });
  assert.deepEqual(r.docs, []);
  assert.ok(statSync(missing).isDirectory());
});

test('scanRoots: legacy corpus, resident memories, and title de-duplication in favour of legacy', async () => {
  const d = tmp();
  const l = tmp();
  put(d, '2026-01-01-共有.txt', diary('共有的标题'));
  put(d, '2026-01-02-独有.txt', diary('只在日记里'));
  put(l, 'documents/active/a.md', '---\ntitle: 共有的标题\ndescription: 旧\ntags: [x]\n---\n旧正文');
  put(l, 'documents/archived/b.md', '---\ntitle: 旧归档\ndescription: 旧\ntags: [x]\n---\n正文');
  put(l, 'documents/index.json', '{}');
  put(l, 'runtime/memories.json', JSON.stringify({ memories: [{ text: '喜欢简洁', critical: true }, { content: '住在东京' }, 'plain', { nope: 1 }] }));

  const r = await scanRoots(scanOpts(d, l));
  const keys = r.docs.map((x) => `${x.root}:${x.path}`).sort();
  assert.deepEqual(keys, ['diary:2026-01-02-独有.txt', 'legacy:documents/active/a.md', 'legacy:documents/archived/b.md']);
  assert.equal(r.docs.find((x) => x.path === 'documents/archived/b.md')!.archived, true);
  assert.ok(r.warnings.some((w) => w.includes('2026-01-01-共有.txt') && w.includes('documents/active/a.md')), r.warnings.join('\n'));
  assert.ok(r.skipped.some((s) => s.path === '2026-01-01-共有.txt'));
  assert.deepEqual(r.resident, [
    { text: '喜欢简洁', critical: true },
    { text: '住在东京', critical: false },
    { text: 'plain', critical: false },
  ]);
  assert.ok(r.warnings.some((w) => w.includes('item 3')));
  // Relation, not a count: no document appears twice across roots by title.
  const titles = r.docs.map((x) => x.title);
  assert.equal(new Set(titles).size, titles.length);
});

test('scanRoots: a configured but missing legacy dir is a warning, not a failure', async () => {
  const d = tmp();
  const r = await scanRoots(scanOpts(d, join(tmp(), 'gone')));
  assert.ok(r.warnings.some((w) => w.includes('legacy corpus not found')));
});

test('parseResidentMemories accepts both shapes and reports bad JSON', () => {
  assert.deepEqual(parseResidentMemories('[{"text":" a ","critical":true}]').resident, [{ text: 'a', critical: true }]);
  assert.equal(parseResidentMemories('{').resident.length, 0);
  assert.ok(parseResidentMemories('{').warnings[0]!.includes('not valid JSON'));
  assert.ok(parseResidentMemories('{"x":1}').warnings[0]!.includes('expected an array'));
});

// ------------------------------------------------------------------------------------------ create

const NOW = new Date(2026, 10, 1, 21, 14);

test('createEntry from a full diary text infers title, summary and tags and writes a parseable file', async () => {
  const d = tmp();
  const content = '[21:14] 东京节点 443 端口处置\n\n> 改到 8443\n\n正文……\n\nTag: 东京节点, 443';
  const r = await createEntry(d, { content, folder: '运维', format: 'txt' }, new Set(), { now: NOW });
  assert.match(r.path, /^运维\/2026-11-01-东京节点-443-端口处置-[0-9a-f]{8}\.txt$/);
  assert.equal(r.docId, docIdFor('diary', r.path));
  assert.equal(r.path.slice(-12, -4), r.id.slice(0, 8));
  assert.deepEqual(r.warnings, []);
  const raw = readFileSync(join(d, r.path), 'utf8');
  const doc = parseDiaryText(raw, { root: 'diary', path: r.path, mtimeMs: 0, size: 0, archiveFolder: '已整理', requireTag: true, timePrefix: true });
  assert.equal(doc.title, '东京节点 443 端口处置');
  assert.equal(doc.time, '21:14');
  assert.equal(doc.summary, '改到 8443');
  assert.deepEqual(doc.tags, ['东京节点', '443']);
  assert.equal(doc.body, '正文……');
  assert.equal(doc.category, '运维');
  assert.equal(doc.embeddedId, r.id.slice(0, 8));
  assert.deepEqual(doc.warnings, []);
});

test('createEntry refuses an existing title (normalised) and writes nothing', async () => {
  const d = tmp();
  const before = snapshot(d);
  await assert.rejects(
    createEntry(d, { title: '已有  标题', content: 'x' }, new Set(['已有 标题']), { now: NOW }),
    (e) => isDiaryError(e, 'title-exists') && /update/.test((e as Error).message),
  );
  assert.deepEqual(snapshot(d), before);
});

test('createEntry never overwrites: same title on the same day gets a distinct file each time', async () => {
  const d = tmp();
  const a = await createEntry(d, { title: '同名', content: '一' }, [], { now: NOW });
  const b = await createEntry(d, { title: '同名', content: '二' }, [], { now: NOW });
  assert.notEqual(a.path, b.path);
  assert.match(readFileSync(join(d, a.path), 'utf8'), /一/);
  assert.match(readFileSync(join(d, b.path), 'utf8'), /二/);
});

test('createEntry: folders cannot escape the diary root', async () => {
  const parent = tmp();
  const d = join(parent, 'diary');
  mkdirSync(d);
  for (const folder of ['../outside', '/tmp', 'a/../../x']) {
    await assert.rejects(createEntry(d, { title: `t${folder}`, content: 'x', folder }, [], { now: NOW }), (e) => isDiaryError(e, 'path-escape'));
  }
  assert.deepEqual(readdirSync(parent), ['diary']);
  assert.deepEqual(readdirSync(d), []);
});

test('createEntry: a hidden folder is refused (the scanner would never see the entry)', async () => {
  const d = tmp();
  await assert.rejects(createEntry(d, { title: 't', content: 'x', folder: '.drafts' }, [], { now: NOW }), (e) => isDiaryError(e, 'invalid-input'));
  assert.deepEqual(readdirSync(d), []);
  // Relation: whatever createEntry writes, scanRoots finds under the same path.
  const r = await createEntry(d, { title: '可见', content: 'x', folder: '分类/子类' }, [], { now: NOW });
  const scan = await scanRoots(scanOpts(d));
  assert.deepEqual(scan.docs.map((x) => x.path), [r.path]);
});

test('createEntry: missing diary dir is a typed error', async () => {
  await assert.rejects(createEntry(join(tmp(), 'none'), { title: 't', content: 'x' }, []), (e) => isDiaryError(e, 'diary-dir-missing'));
});

test('createEntry: .md format writes front matter that parses back', async () => {
  const d = tmp();
  const r = await createEntry(d, { title: '标题', summary: '摘要', body: '正文', tags: ['a'], format: 'md', date: '2025-02-03', time: '08:09' }, [], { now: NOW });
  assert.match(r.path, /^2025-02-03-标题-[0-9a-f]{8}\.md$/);
  const doc = parseDiaryText(readFileSync(join(d, r.path), 'utf8'), { root: 'diary', path: r.path, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: true, timePrefix: true });
  assert.equal(doc.title, '标题');
  assert.equal(doc.summary, '摘要');
  assert.equal(doc.body, '正文');
  assert.equal(doc.date, '2025-02-03');
  assert.equal(doc.time, '08:09');
  assert.equal(doc.embeddedId, r.id);
});

test('composeEntry: an explicit title different from the anchored first line keeps that line as body', () => {
  const c = composeEntry({ title: '一句话标题', content: '[09:30] 正文第一段……\n\n正文继续……\nTag: 标签1, 标签2', tags: ['标签2', '标签3'] }, NOW);
  assert.equal(c.title, '一句话标题');
  assert.equal(c.time, '09:30');
  assert.equal(c.body, '正文第一段……\n\n正文继续……');
  assert.deepEqual(c.tags, ['标签1', '标签2', '标签3']);
  assert.ok(c.warnings.some((w) => w.includes('summary')));
});

test('composeEntry: plain body text, explicit fields win, time/date fall back to now', () => {
  const c = composeEntry({ title: 'T', content: '这是一段很长的正文，第一行就超过了四十个字符，所以它不会被当成标题来用的，对吧对吧对吧。\n第二行' }, NOW);
  assert.equal(c.title, 'T');
  assert.ok(c.body.startsWith('这是一段很长的正文'));
  assert.equal(c.time, '21:14');
  assert.equal(c.date, '2026-11-01');
  assert.ok(c.warnings.some((w) => w.includes('no tags')));

  const noTitle = composeEntry({ content: '短标题行\n\n> 摘要\n\n正文' }, NOW);
  assert.equal(noTitle.title, '短标题行');
  assert.equal(noTitle.summary, '摘要');
  assert.equal(noTitle.body, '正文');

  const bad = composeEntry({ title: 'T', content: 'x', date: '2026-02-30', time: '25:00' }, NOW);
  assert.equal(bad.date, '2026-11-01');
  assert.equal(bad.time, '21:14');
  assert.ok(bad.warnings.some((w) => w.includes('invalid date')) && bad.warnings.some((w) => w.includes('invalid time')));

  assert.throws(() => composeEntry({ content: '   ' }, NOW), (e) => isDiaryError(e, 'invalid-input'));
});

// ------------------------------------------------------------------------------------------ edit

const EDITABLE = '[21:14] 东京节点\n\n> 摘要\n\n第一段：面板程序抢占了 443 端口，代理无法启动。\n第二段：改到 8443 后恢复正常。\n\nTag: a\n';

test('editEntry replaces one passage atomically and keeps the file mode', async () => {
  const d = tmp();
  put(d, 'x.txt', EDITABLE);
  chmodSync(join(d, 'x.txt'), 0o640);
  const r = await editEntry(d, 'x.txt', '面板程序抢占了 443 端口，代理无法启动。', '面板程序占用了 443 端口。', 15);
  assert.equal(statSync(join(d, 'x.txt')).mode & 0o777, 0o640);
  assert.equal(r.strategy, 'exact');
  assert.equal(r.docId, docIdFor('diary', 'x.txt'));
  assert.equal(r.changed, true);
  assert.equal(readFileSync(join(d, 'x.txt'), 'utf8'), EDITABLE.replace('面板程序抢占了 443 端口，代理无法启动。', '面板程序占用了 443 端口。'));
  assert.deepEqual(readdirSync(d), ['x.txt']);
});

test('editEntry failures leave the file byte-identical (too short, not found, ambiguous)', async () => {
  const d = tmp();
  const bytes = Buffer.from(`\uFEFF${EDITABLE.replace(/\n/g, '\r\n')}重复重复重复重复重复重复重复重复\r\n重复重复重复重复重复重复重复重复\r\n`, 'utf8');
  put(d, 'x.txt', bytes);
  const mtime = statSync(join(d, 'x.txt')).mtimeMs;
  const cases: [string, string][] = [
    ['短', 'target-too-short'],
    ['这段文字并不存在于这篇日记之中啊', 'target-not-found'],
    ['重复重复重复重复重复重复重复重复', 'target-ambiguous'],
  ];
  for (const [target, code] of cases) {
    await assert.rejects(editEntry(d, 'x.txt', target, 'REPLACED', 15), (e) => isDiaryError(e, code as never), code);
    assert.ok(readFileSync(join(d, 'x.txt')).equals(bytes), code);
  }
  assert.equal(statSync(join(d, 'x.txt')).mtimeMs, mtime);
  assert.deepEqual(readdirSync(d), ['x.txt']);
});

test('editEntry keeps a BOM and CRLF line endings (multi-line replacement adapted)', async () => {
  const d = tmp();
  put(d, 'x.txt', `\uFEFF${EDITABLE.replace(/\n/g, '\r\n')}`);
  const r = await editEntry(d, 'x.txt', '第一段：面板程序抢占了 443 端口，代理无法启动。\n第二段：改到 8443 后恢复正常。', '新一段\n新二段', 15);
  assert.equal(r.strategy, 'trailing-space');
  const after = readFileSync(join(d, 'x.txt'), 'utf8');
  assert.ok(after.startsWith('\uFEFF[21:14]'));
  assert.ok(after.includes('新一段\r\n新二段\r\n'));
  assert.ok(!/[^\r]\n/.test(after), 'no bare LF introduced');
});

test('editEntry refuses invalid UTF-8, missing files and escaping paths', async () => {
  const d = tmp();
  const bad = Buffer.from([0x61, 0xff, 0x62]);
  put(d, 'bad.txt', bad);
  await assert.rejects(editEntry(d, 'bad.txt', 'a'.repeat(20), 'x', 15), (e) => isDiaryError(e, 'invalid-input'));
  assert.ok(readFileSync(join(d, 'bad.txt')).equals(bad));
  await assert.rejects(editEntry(d, 'none.txt', 'a'.repeat(20), 'x', 15), (e) => isDiaryError(e, 'not-found'));
  await assert.rejects(editEntry(d, '../x.txt', 'a'.repeat(20), 'x', 15), (e) => isDiaryError(e, 'path-escape'));
});

test('property: a failed edit never changes a byte; a successful one changes only the range', async () => {
  const d = tmp();
  const alphabet = fc.constantFrom(...'ab 东京\n\r\t。');
  const text = fc.array(alphabet, { minLength: 0, maxLength: 80 }).map((cs) => cs.join(''));
  let n = 0;
  await fc.assert(
    fc.asyncProperty(text, fc.nat(), fc.nat({ max: 30 }), fc.string({ maxLength: 10 }), async (content, s, len, replacement) => {
      const rel = `p${n++}.txt`;
      const bytes = Buffer.from(content, 'utf8');
      put(d, rel, bytes);
      const start = content.length ? s % content.length : 0;
      const target = content.slice(start, start + len);
      try {
        const r = await editEntry(d, rel, target, replacement, 4);
        const after = readFileSync(join(d, rel), 'utf8');
        const expected = anchoredReplace(content, target, matchLineEndings(content, replacement), 4);
        assert.ok(expected.ok, 'the file-level edit succeeds exactly when the pure one does');
        assert.equal(after, expected.content);
        assert.equal(r.changed, after !== content);
      } catch (e) {
        assert.ok(isDiaryError(e), String(e));
        assert.equal(anchoredReplace(content, target, replacement, 4).ok, false);
        assert.ok(readFileSync(join(d, rel)).equals(bytes));
      }
    }),
    { numRuns: 150 },
  );
  assert.ok(readdirSync(d).every((f) => /^p\d+\.txt$/.test(f)), 'no temp files left behind');
});

// ------------------------------------------------------------------------------------------ archive

test('archiveEntry moves into the archive keeping the sub-path, never overwrites, never deletes', async () => {
  const d = tmp();
  put(d, '工作/2026-01-01-x-1a2b3c4d.txt', diary('x'));
  put(d, '已整理/工作/2026-01-01-x-1a2b3c4d.txt', 'an older archived copy');
  const r = await archiveEntry(d, '工作/2026-01-01-x-1a2b3c4d.txt', '已整理');
  assert.equal(r.from, '工作/2026-01-01-x-1a2b3c4d.txt');
  assert.equal(r.path, '已整理/工作/2026-01-01-x-2-1a2b3c4d.txt');
  assert.equal(r.docId, docIdFor('diary', r.path));
  assert.equal(existsSync(join(d, r.from)), false);
  assert.equal(readFileSync(join(d, r.path), 'utf8'), diary('x'));
  assert.equal(readFileSync(join(d, '已整理/工作/2026-01-01-x-1a2b3c4d.txt'), 'utf8'), 'an older archived copy');
  // The embedded id survives the collision suffix, and the new location parses as archived.
  assert.equal(parseFileName('2026-01-01-x-2-1a2b3c4d.txt').id, '1a2b3c4d');
  const doc = parseDiaryText(diary('x'), { root: 'diary', path: r.path, mtimeMs: 0, size: 0, archiveFolder: '已整理', requireTag: true, timePrefix: true });
  assert.equal(doc.archived, true);
  assert.equal(doc.category, '工作');

  await assert.rejects(archiveEntry(d, r.path, '已整理'), (e) => isDiaryError(e, 'already-archived'));
  await assert.rejects(archiveEntry(d, 'missing.txt', '已整理'), (e) => isDiaryError(e, 'not-found'));
  await assert.rejects(archiveEntry(d, '../x.txt', '已整理'), (e) => isDiaryError(e, 'path-escape'));
});

test('restoreEntry moves an archived diary back to its folder (suffix on collision)', async () => {
  const d = tmp();
  put(d, '工作/a.txt', 'v1');
  const archived = await archiveEntry(d, '工作/a.txt', '已整理');
  put(d, '工作/a.txt', 'a newer file with the same name');
  const restored = await restoreEntry(d, archived.path, '已整理');
  assert.equal(restored.path, '工作/a-2.txt');
  assert.equal(readFileSync(join(d, '工作/a-2.txt'), 'utf8'), 'v1');
  assert.equal(readFileSync(join(d, '工作/a.txt'), 'utf8'), 'a newer file with the same name');
  await assert.rejects(restoreEntry(d, '工作/a.txt', '已整理'), (e) => isDiaryError(e, 'not-archived'));
});

test('withCollisionSuffix keeps the id at the end of the name', () => {
  assert.equal(withCollisionSuffix('2026-01-01-t-1a2b3c4d.txt', 1), '2026-01-01-t-1a2b3c4d.txt');
  assert.equal(withCollisionSuffix('2026-01-01-t-1a2b3c4d.txt', 3), '2026-01-01-t-3-1a2b3c4d.txt');
  assert.equal(withCollisionSuffix('plain.txt', 2), 'plain-2.txt');
  assert.equal(withCollisionSuffix('noext', 2), 'noext-2');
});

// forget names a memory it already archived by the path (or the docId of the path) it had before.
test('pathsBeforeArchive: the sub-path below the archive folder, and that without a collision counter', () => {
  assert.deepEqual(pathsBeforeArchive('已整理/工作/2026-01-01-x-1a2b3c4d.txt', '已整理'), ['工作/2026-01-01-x-1a2b3c4d.txt']);
  assert.deepEqual(pathsBeforeArchive('已整理/工作/2026-01-01-x-2-1a2b3c4d.txt', '已整理'), ['工作/2026-01-01-x-2-1a2b3c4d.txt', '工作/2026-01-01-x-1a2b3c4d.txt']);
  assert.deepEqual(pathsBeforeArchive('已整理/plain-12.txt', '已整理'), ['plain-12.txt', 'plain.txt']);
  assert.deepEqual(pathsBeforeArchive('已整理/2026-01-06.txt', '已整理'), ['2026-01-06.txt'], 'a date is not a counter');
  assert.deepEqual(pathsBeforeArchive('old/done/a.txt', 'old/done'), ['a.txt']);
  assert.deepEqual(pathsBeforeArchive('工作/a.txt', '已整理'), []);
  assert.deepEqual(pathsBeforeArchive('已整理', '已整理'), []);
  for (const n of [2, 3, 17]) for (const name of ['2026-01-01-t-1a2b3c4d.txt', 'plain.txt', 'noext']) assert.equal(pathsBeforeArchive(`a/${withCollisionSuffix(name, n)}`, 'a').at(-1), name);
});

test('editEntry: a UTF-16 diary is held to the size limit in its own bytes, not in UTF-8 (it would drop out of the index)', async () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-u16-size-'));
  const head = '[09:00] 大文件\n\n> 很长的一篇。\n\n面板程序抢占了 443 端口，代理无法启动。\n';
  const text = `${head}${'a'.repeat(4_100_000)}\n\nTag: 大文件\n`;
  const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  writeFileSync(join(d, 'big.txt'), bytes);
  // 8.2 MB in UTF-16; 200,000 more letters make it 8.6 MB (over the 8 MiB limit), 4.3 MB in UTF-8 (under it).
  await assert.rejects(editEntry(d, 'big.txt', '面板程序抢占了 443 端口，代理无法启动。', `面板程序抢占了 443 端口，代理无法启动。${'b'.repeat(200_000)}`, 15), (e) => isDiaryError(e, 'too-large'));
  assert.deepEqual(readFileSync(join(d, 'big.txt')), bytes, 'untouched');
});
