// Issue #13 item 9 — a tag containing U+2028/U+2029 silently wiped every tag of its memory; a lone
// surrogate in a title was silently changed; zero-width and full-width variants made different
// titles that look identical; terminal escape codes were kept and printed by `engram list`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseDiaryText } from '../../src/diary/parse.ts';
import { openEngine, type Engine } from '../../src/engine.ts';
import { tempDirs } from './helpers.ts';

const BODY = '东京节点的 443 端口被 nginx 占用，改由 sing-box 接管，并把时区调整为 UTC+9。';
const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));

async function withEngine(fn: (engine: Engine, dirs: ReturnType<typeof tempDirs>) => Promise<void>) {
  const dirs = tempDirs('engram-integrity-text-');
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.root } });
  try {
    await fn(engine, dirs);
  } finally {
    engine.close();
  }
}

const info = { root: 'diary' as const, path: 'a.txt', mtimeMs: 0, size: 0, archiveFolder: 'archive', requireTag: true, timePrefix: true };

for (const sep of ['\u2028', '\u2029']) {
  const name = `U+${sep.charCodeAt(0).toString(16).toUpperCase()}`;
  test(`a tag containing ${name} keeps every tag of the memory, and the write says what it changed`, async () => {
    await withEngine(async (engine) => {
      const r = await engine.write({ title: '端口处置记录', content: BODY, tags: [`东京${sep}节点`, 'sing-box', 'nginx'] });
      const m = (await engine.list()).find((x) => x.docId === r.docId)!;
      assert.equal(m.tags.length, 3, `tags: ${JSON.stringify(m.tags)}`);
      assert.ok(m.tags.includes('sing-box') && m.tags.includes('nginx'));
      assert.ok(m.tags.every((t) => !t.includes(sep)));
      assert.ok(r.warnings.some((w) => w.includes('标签') && w.includes('U+2028/U+2029')), r.warnings.join('\n'));
    });
  });

  test(`a diary already on disk with ${name} in its Tag line still has its tags`, () => {
    const d = parseDiaryText(`[09:00] 标题\n\n> 摘要。\n\n正文。\n\nTag: 东京${sep}节点, sing-box\n`, info);
    assert.equal(d.tags.length, 2, JSON.stringify(d.tags));
    assert.ok(d.tags.includes('sing-box'));
  });
}

test('a lone surrogate in a title is removed and reported, not silently turned into U+FFFD', async () => {
  await withEngine(async (engine) => {
    const r = await engine.write({ title: '端口\ud800处置记录', content: BODY, tags: ['东京节点'] });
    const m = (await engine.list()).find((x) => x.docId === r.docId)!;
    assert.equal(m.title, '端口处置记录');
    assert.ok(r.warnings.some((w) => w.includes('标题') && /lone surrogate/.test(w)), r.warnings.join('\n'));
  });
});

test('titles that look identical are the same title: zero-width and full-width variants are refused as duplicates', async () => {
  await withEngine(async (engine) => {
    await engine.write({ title: 'Tokyo 节点端口', content: BODY, tags: ['东京节点'] });
    const other = '数据库备份策略：迁移前复制数据库文件到 backups 目录，保留最近五份，每周日凌晨检查一次。';
    for (const lookalike of ['Tok\u200byo 节点端口', 'Ｔｏｋｙｏ 节点端口', 'Tokyo\u2060 节点端口', 'Tokyo\u3000节点端口']) {
      await assert.rejects(engine.write({ title: lookalike, content: other, tags: ['备份'] }), (e: { code?: string }) => e.code === 'title-exists', JSON.stringify(lookalike));
    }
    assert.equal((await engine.list()).length, 1);
  });
});

test('terminal escape codes and bidi overrides are stripped from a new title, with a warning', async () => {
  await withEngine(async (engine) => {
    const r = await engine.write({ title: '\u001b[31m红色\u001b[0m的\u202e标题\u001b]0;pwned\u0007', content: BODY, tags: ['\u001b[1m东京节点'] });
    const m = (await engine.list()).find((x) => x.docId === r.docId)!;
    assert.equal(m.title, '红色的标题');
    assert.deepEqual(m.tags, ['东京节点']);
    assert.ok(r.warnings.some((w) => /terminal escape sequence/.test(w)), r.warnings.join('\n'));
  });
});

test('engram list never prints raw escape codes from memory text (a hand-written file on disk)', { timeout: 120_000 }, async () => {
  const dirs = tempDirs('engram-integrity-text-');
  writeFileSync(join(dirs.diaryDir, '2026-11-01-evil-aaaa1111.txt'), `[09:00] \u001b[2J\u001b]0;owned\u0007清屏标题\u009b31m\n\n> 摘要。\n\n${BODY}\n\nTag: 东京节点\n`);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const env = { PATH: process.env.PATH ?? '', HOME: dirs.root };
  const idx = spawnSync(process.execPath, [bin, 'index', ...common], { encoding: 'utf8', env, timeout: 60_000 });
  assert.equal(idx.status, 0, idx.stderr);
  for (const json of [false, true]) {
    const r = spawnSync(process.execPath, [bin, 'list', ...common, ...(json ? ['--json'] : [])], { encoding: 'utf8', env, timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.includes('清屏标题'), r.stdout);
    assert.doesNotMatch(r.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, 'no raw control character reaches the terminal');
    if (json) {
      const list = JSON.parse(r.stdout) as { title: string }[];
      assert.match(list[0]!.title, /\u001b\[2J/, 'JSON keeps the value (escaped, not raw)');
    } else assert.match(r.stdout, /\\u001b\[2J/, 'shown as a visible escape');
  }
});

test('a write merged into an older memory still says what was stripped from it', async () => {
  await withEngine(async (engine) => {
    const first = await engine.write({ title: '端口处置记录', content: BODY, tags: ['东京节点'] });
    const again = await engine.write({ title: '端口处置', content: `${BODY}\u001b[31m`, tags: ['东京\u2028节点'] });
    assert.equal(again.merged, true, JSON.stringify(again));
    assert.equal(again.docId, first.docId);
    assert.ok(again.warnings.some((w) => /terminal escape sequence/.test(w)) && again.warnings.some((w) => /U\+2028/.test(w)), again.warnings.join('\n'));
  });
});
