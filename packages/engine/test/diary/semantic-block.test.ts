import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { blockHash, parseNoteBlocks } from '../../src/diary/semantic-block.ts';
import { composeEntry } from '../../src/diary/store.ts';

const CREATE = `好的，已经处理完了。

<<<DailyNoteStart>>>
command: create
title: 东京节点 443 端口冲突
folder: 运维
tags: 东京节点, 443 端口

[21:14] 东京节点 443 端口冲突

> 面板抢占 443，改 8443。

正文……
Tag: 东京节点, 443 端口
<<<DailyNoteEnd>>>`;

const UPDATE = `<<<DailyNoteStart>>>
command: update
target: 面板程序抢占了 443 端口，代理无法启动。
replace: 面板程序占用 443；
改到 8443 后恢复。
<<<DailyNoteEnd>>>`;

test('a create block: header fields and the diary text', () => {
  const { blocks, errors } = parseNoteBlocks(CREATE);
  assert.deepEqual(errors, []);
  assert.equal(blocks.length, 1);
  const b = blocks[0]!;
  assert.equal(b.command, 'create');
  if (b.command !== 'create') return;
  assert.equal(b.title, '东京节点 443 端口冲突');
  assert.equal(b.folder, '运维');
  assert.deepEqual(b.tags, ['东京节点', '443 端口']);
  assert.ok(b.content.startsWith('[21:14] 东京节点 443 端口冲突'));
  assert.ok(b.content.endsWith('Tag: 东京节点, 443 端口'));
  assert.match(b.hash, /^[0-9a-f]{40}$/);
  // The block feeds createEntry without loss.
  const entry = composeEntry({ title: b.title, content: b.content, tags: b.tags });
  assert.equal(entry.summary, '面板抢占 443，改 8443。');
  assert.equal(entry.time, '21:14');
  assert.equal(entry.body, '正文……');
});

test('an update block: one-line target, multi-line replace', () => {
  const { blocks, errors } = parseNoteBlocks(UPDATE);
  assert.deepEqual(errors, []);
  const b = blocks[0]!;
  assert.equal(b.command, 'update');
  if (b.command !== 'update') return;
  assert.equal(b.target, '面板程序抢占了 443 端口，代理无法启动。');
  assert.equal(b.replace, '面板程序占用 443；\n改到 8443 后恢复。');
});

test('update: empty replace deletes; multi-line target; replace on following lines; "" means empty', () => {
  const del = parseNoteBlocks('<<<DailyNoteStart>>>\ncommand: update\ntarget: 第一行原文很长很长\n第二行原文也很长\nreplace:\n<<<DailyNoteEnd>>>');
  assert.deepEqual(del.errors, []);
  const b = del.blocks[0]!;
  assert.ok(b.command === 'update' && b.replace === '' && b.target === '第一行原文很长很长\n第二行原文也很长');
  const next = parseNoteBlocks('<<<DailyNoteStart>>>\ncommand: update\ntarget: 原文原文原文原文原文原文\nreplace:\n  新的第一行\n新的第二行\n<<<DailyNoteEnd>>>');
  assert.ok(next.blocks[0]!.command === 'update' && next.blocks[0]!.replace === '新的第一行\n新的第二行');
  const quoted = parseNoteBlocks('<<<DailyNoteStart>>>\ncommand: update\ntarget: 原文原文原文原文原文原文\nreplace: ""\n<<<DailyNoteEnd>>>');
  assert.ok(quoted.blocks[0]!.command === 'update' && quoted.blocks[0]!.replace === '');
});

test('errors are entries, not throws: unknown command, missing title/target/replace/content, unclosed', () => {
  const text = [
    '<<<DailyNoteStart>>>\ncommand: delete\ntitle: x\n\nbody\n<<<DailyNoteEnd>>>',
    '<<<DailyNoteStart>>>\ncommand: create\nfolder: a\n\nbody\n<<<DailyNoteEnd>>>',
    '<<<DailyNoteStart>>>\ncommand: update\nreplace: y\n<<<DailyNoteEnd>>>',
    '<<<DailyNoteStart>>>\ncommand: update\ntarget: 原文原文原文原文\n<<<DailyNoteEnd>>>',
    '<<<DailyNoteStart>>>\ncommand: create\ntitle: 空\n\n   \n<<<DailyNoteEnd>>>',
    '<<<DailyNoteStart>>>\njust text\n<<<DailyNoteEnd>>>',
    '<<<DailyNoteStart>>>\ncommand: create\ntitle: 未闭合\n\n正文',
  ].join('\n\n');
  const { blocks, errors } = parseNoteBlocks(text);
  assert.equal(blocks.length, 0);
  assert.deepEqual(errors.map((e) => e.index), [0, 1, 2, 3, 4, 5, 6]);
  assert.match(errors[0]!.message, /unknown command/);
  assert.match(errors[1]!.message, /title/);
  assert.match(errors[2]!.message, /target/);
  assert.match(errors[3]!.message, /replace/);
  assert.match(errors[4]!.message, /no diary text/);
  assert.match(errors[5]!.message, /command/);
  assert.match(errors[6]!.message, /not closed/);
});

test('several blocks keep their order and indices; valid ones survive a broken neighbour', () => {
  const { blocks, errors } = parseNoteBlocks(`${CREATE}\n中间的话\n<<<DailyNoteStart>>>\ncommand: bogus\n<<<DailyNoteEnd>>>\n${UPDATE}`);
  assert.deepEqual(blocks.map((b) => [b.index, b.command]), [[0, 'create'], [2, 'update']]);
  assert.deepEqual(errors.map((e) => e.index), [1]);
});

test('a forgotten blank line after the header does not swallow the diary first line', () => {
  const { blocks } = parseNoteBlocks('<<<DailyNoteStart>>>\ncommand: create\ntitle: T\n[21:14] T\n\n> s\n<<<DailyNoteEnd>>>');
  assert.ok(blocks[0]!.command === 'create' && blocks[0]!.content.startsWith('[21:14] T'));
  const word = parseNoteBlocks('<<<DailyNoteStart>>>\ncommand: create\ntitle: T\nNote: 这是正文\n<<<DailyNoteEnd>>>');
  assert.ok(word.blocks[0]!.command === 'create' && word.blocks[0]!.content === 'Note: 这是正文');
});

test('missing command is inferred from title / target; aliases and CRLF are accepted', () => {
  const a = parseNoteBlocks('<<<DailyNoteStart>>>\r\ntitle: T\r\n\r\nbody\r\n<<<DailyNoteEnd>>>');
  assert.ok(a.blocks[0]!.command === 'create' && a.blocks[0]!.content === 'body');
  const b = parseNoteBlocks('<<< DailyNoteStart >>>\nCommand： edit\ntarget: 原文原文原文原文\nreplace: x\n<<<dailynoteend>>>');
  assert.ok(b.blocks[0]!.command === 'update');
});

test('blocks shown inside code fences are examples, not writes (unless asked)', () => {
  const fenced = `示例：\n\`\`\`\n${CREATE}\n\`\`\`\n`;
  assert.equal(parseNoteBlocks(fenced).blocks.length, 0);
  assert.equal(parseNoteBlocks(fenced, { ignoreFenced: false }).blocks.length, 1);
  assert.equal(parseNoteBlocks(`${fenced}\n${UPDATE}`).blocks.length, 1);
});

test('hash: same block → same hash across CRLF / trailing spaces; different block → different hash', () => {
  const a = parseNoteBlocks(UPDATE).blocks[0]!.hash;
  const b = parseNoteBlocks(UPDATE.replace(/\n/g, '  \r\n')).blocks[0]!.hash;
  const c = parseNoteBlocks(UPDATE.replace('8443', '9443')).blocks[0]!.hash;
  assert.equal(a, b);
  assert.notEqual(a, c);
  assert.equal(blockHash('x\n'), blockHash('x'));
});

test('stray end markers and no markers at all produce nothing', () => {
  assert.deepEqual(parseNoteBlocks('no blocks here <<<DailyNoteEnd>>>'), { blocks: [], errors: [] });
  assert.deepEqual(parseNoteBlocks(''), { blocks: [], errors: [] });
});

test('fuzz: never throws; every block is well-formed', () => {
  const pieces = fc.constantFrom(
    '<<<DailyNoteStart>>>', '<<<DailyNoteEnd>>>', '\n', '\r\n', '\n\n', 'command: create', 'command: update', 'command: x',
    'title: T', 'target: ', 'replace:', 'tags: a, b', 'folder: f', '```', '~~~', '[21:14] ', '> ', 'Tag: a', '：', '"', '',
  );
  const text = fc.array(fc.oneof(pieces, fc.string({ maxLength: 12 })), { maxLength: 40 }).map((xs) => xs.join(''));
  fc.assert(
    fc.property(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 300 })), fc.boolean(), (t, ignoreFenced) => {
      const r = parseNoteBlocks(t, { ignoreFenced });
      for (const b of r.blocks) {
        assert.match(b.hash, /^[0-9a-f]{40}$/);
        if (b.command === 'create') {
          assert.ok(b.title.trim() !== '' && b.content.trim() !== '');
        } else {
          assert.equal(b.command, 'update');
          assert.ok(b.target.trim() !== '');
          assert.equal(typeof b.replace, 'string');
        }
      }
      const indices = [...r.blocks.map((b) => b.index), ...r.errors.map((e) => e.index)].sort((x, y) => x - y);
      assert.deepEqual(indices, indices.map((_, i) => i), 'indices are 0..n-1 without gaps');
    }),
    { numRuns: 1000 },
  );
});
