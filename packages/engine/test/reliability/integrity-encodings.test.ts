// Issue #13 item 3 — one-click metadata changes destroyed or rewrote files: pinning a UTF-16 diary
// wrote it back as garbled UTF-8 (the next rebuild skipped it as binary), CRLF became LF, a UTF-8
// BOM was dropped. Byte for byte, for every encoding the scanner reads and every line-ending
// layout: pin / unpin / setSummary / saveText change only the bytes they mean to.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEngine, type Engine } from '../../src/engine.ts';
import { decodeText } from '../../src/diary/store.ts';

type DiaryEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** Encoded here, not with the engine's encoder, so the fixtures do not depend on the code under test. */
function encodeText(text: string, encoding: DiaryEncoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  const le = Buffer.from(text, 'utf16le');
  return encoding === 'utf-16le' ? le : le.swap16();
}
import { tempDirs } from './helpers.ts';

interface Variant {
  name: string;
  encoding: DiaryEncoding;
  bom: boolean;
  eol: 'lf' | 'crlf' | 'mixed';
}

const VARIANTS: Variant[] = [
  { name: 'UTF-8, LF', encoding: 'utf-8', bom: false, eol: 'lf' },
  { name: 'UTF-8, CRLF', encoding: 'utf-8', bom: false, eol: 'crlf' },
  { name: 'UTF-8, mixed CRLF/LF', encoding: 'utf-8', bom: false, eol: 'mixed' },
  { name: 'UTF-8 BOM, CRLF', encoding: 'utf-8', bom: true, eol: 'crlf' },
  { name: 'UTF-8 BOM, LF', encoding: 'utf-8', bom: true, eol: 'lf' },
  { name: 'UTF-16LE BOM, CRLF', encoding: 'utf-16le', bom: true, eol: 'crlf' },
  { name: 'UTF-16LE BOM, mixed', encoding: 'utf-16le', bom: true, eol: 'mixed' },
  { name: 'UTF-16BE BOM, LF', encoding: 'utf-16be', bom: true, eol: 'lf' },
];

const LINES = ['[09:00] 编码测试日记', '', '> 原来的摘要。', '', '第一段正文，含中文和 emoji 🐱。', '第二段：结尾没有多余空格。', '', 'Tag: 编码, 测试'];

/** The text with the variant's line endings (mixed: every other line CRLF). */
function layout(lines: string[], eol: Variant['eol']): string {
  return lines.map((l, i) => l + (eol === 'lf' ? '\n' : eol === 'crlf' ? '\r\n' : i % 2 === 0 ? '\r\n' : '\n')).join('');
}

const bytesOf = (text: string, v: Variant) => encodeText((v.bom ? '\ufeff' : '') + text, v.encoding);

async function withEngine<T>(fn: (engine: Engine, file: string, dirs: ReturnType<typeof tempDirs>) => Promise<T>): Promise<T> {
  const dirs = tempDirs('engram-integrity-enc-');
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.root } });
  try {
    return await fn(engine, join(dirs.diaryDir, '2026-11-01-编码-aaaa1111.txt'), dirs);
  } finally {
    engine.close();
  }
}

async function docIdOf(engine: Engine): Promise<string> {
  await engine.index({ full: false });
  const list = await engine.list();
  assert.equal(list.length, 1, 'the file is indexed (not skipped as binary)');
  return list[0]!.docId;
}

test('the test fixtures are what they claim: the scanner decodes each variant to the same text', () => {
  for (const v of VARIANTS) {
    const d = decodeText(bytesOf(layout(LINES, v.eol), v));
    assert.ok(d.ok && d.text === (v.bom ? '\ufeff' : '') + layout(LINES, v.eol), v.name);
  }
});

for (const v of VARIANTS) {
  test(`${v.name}: pin adds exactly one Meta line, unpin gives back the original bytes`, async () => {
    await withEngine(async (engine, file) => {
      const original = bytesOf(layout(LINES, v.eol), v);
      writeFileSync(file, original);
      const id = await docIdOf(engine);
      const pinned = await engine.updateMeta(id, { pinned: true });
      assert.equal(pinned.pinned, true);
      const after = readFileSync(file);
      // The whole file decodes in its own encoding and is the original plus one Meta line, ended like the file's lines.
      // A new line ends like most of the file's lines (mixed here: as many CRLF as LF → CRLF).
      const nl = v.eol === 'lf' ? '\n' : '\r\n';
      assert.deepEqual(after, bytesOf(`${layout(LINES, v.eol)}Meta: pinned${nl}`, v), 'only the Meta line was added');
      assert.equal((await engine.list())[0]!.pinned, true, 'still indexed after the rewrite');
      await engine.updateMeta(id, { pinned: false });
      assert.deepEqual(readFileSync(file), original, 'unpinned: byte for byte the original');
    });
  });

  test(`${v.name}: setSummary changes only the summary line`, async () => {
    await withEngine(async (engine, file) => {
      writeFileSync(file, bytesOf(layout(LINES, v.eol), v));
      const id = await docIdOf(engine);
      await engine.setSummary(id, '新的摘要。', 'manual');
      const expected = layout(LINES.map((l) => (l === '> 原来的摘要。' ? '> 新的摘要。' : l)), v.eol);
      assert.deepEqual(readFileSync(file), bytesOf(expected, v));
      const detail = await engine.read(id);
      assert.equal(detail!.summary, '新的摘要。');
    });
  });

  test(`${v.name}: saveText of an editor's LF-only text keeps encoding, BOM and the endings of untouched lines`, async () => {
    await withEngine(async (engine, file) => {
      writeFileSync(file, bytesOf(layout(LINES, v.eol), v));
      const id = await docIdOf(engine);
      const opened = (await engine.read(id))!;
      assert.ok(opened.raw.includes('第一段正文'), 'the editor is given the decoded text, not mojibake');
      // What a browser textarea hands back: LF only, BOM gone, one line changed.
      const edited = opened.raw.replace(/^\ufeff/, '').replace(/\r\n/g, '\n').replace('第二段：结尾没有多余空格。', '第二段：改过了。');
      await engine.saveText(id, edited, opened.contentHash);
      const expected = layout(LINES.map((l) => (l === '第二段：结尾没有多余空格。' ? '第二段：改过了。' : l)), v.eol);
      assert.deepEqual(readFileSync(file), bytesOf(expected, v));
      assert.equal((await engine.list()).length, 1, 'still indexed');
    });
  });
}

test('a .md front matter: pin / unpin touch only their key line, CRLF and BOM kept', async () => {
  await withEngine(async (engine, _file, dirs) => {
    const file = join(dirs.diaryDir, '2026-11-02-md-bbbb2222.md');
    const text = ['---', 'title: "前置元数据"', 'description: "摘要。"', 'tags: ["a"]', '---', '', '# 前置元数据', '', '正文。', ''].join('\r\n');
    const original = Buffer.from(`\ufeff${text}`, 'utf8');
    writeFileSync(file, original);
    const id = await docIdOf(engine);
    await engine.updateMeta(id, { pinned: true });
    assert.equal(readFileSync(file, 'utf8'), `\ufeff${text.replace('tags: ["a"]\r\n', 'tags: ["a"]\r\npinned: true\r\n')}`);
    await engine.updateMeta(id, { pinned: false });
    assert.deepEqual(readFileSync(file), original);
  });
});

test('a file that is not valid UTF-8 is refused by pin, summary and save — and left as it was', async () => {
  await withEngine(async (engine, file) => {
    writeFileSync(file, layout(LINES, 'lf'));
    const id = await docIdOf(engine);
    const hash = (await engine.read(id))!.contentHash;
    const bad = Buffer.concat([Buffer.from(layout(LINES, 'lf')), Buffer.from([0xff, 0xfe, 0x0a])]);
    writeFileSync(file, bad);
    await assert.rejects(engine.updateMeta(id, { pinned: true }), (e: { code?: string }) => e.code === 'invalid-input');
    await assert.rejects(engine.setSummary(id, '摘要', 'manual'), (e: { code?: string }) => e.code === 'invalid-input');
    await assert.rejects(engine.saveText(id, layout(LINES, 'lf'), hash), (e: { code?: string }) => e.code === 'invalid-input' || e.code === 'conflict');
    assert.deepEqual(readFileSync(file), bad);
  });
});
