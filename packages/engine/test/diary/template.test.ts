import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anchorLength } from '../../src/diary/edit.ts';
import { parseDiaryText } from '../../src/diary/parse.ts';
import { parseNoteBlocks } from '../../src/diary/semantic-block.ts';
import { BUILTIN_DIARY_GUIDELINE as G } from '../../src/diary/template.ts';

test('the guideline is Chinese-first and of the intended length', () => {
  const chars = Array.from(G).length;
  assert.ok(chars >= 2500 && chars <= 3200, `${chars} characters`);
  const cjk = (G.match(/[\u4e00-\u9fff]/g) ?? []).length;
  assert.ok(cjk / chars > 0.6, `CJK share ${cjk}/${chars}`);
});

test('the guideline covers every topic it must teach', () => {
  const topics: [string, RegExp][] = [
    ['when to write', /什么时候写/],
    ['after a conclusion forms', /结论成形/],
    ['end of the reply', /回复的末尾/],
    ['one event per entry', /一件事一篇/],
    ['density: cause/background/process/result/data/review', /起因[\s\S]*背景[\s\S]*过程[\s\S]*结果[\s\S]*关键数据[\s\S]*复盘/],
    ['anchor from the conversation, never invented', /HH:MM[\s\S]{0,40}取自对话[\s\S]{0,80}不要编造/],
    ['tags: specific first, mechanisms, general last', /具体名称放最前面[\s\S]*机制和方法[\s\S]*通用类别放最后/],
    ['tags grounded in the body', /正文里有依据/],
    ['knowledge entries', /知识型日记/],
    ['linking entries', /关联已有日记/],
    ['create command', /command: create/],
    ['update command with target and replace', /command: update[\s\S]*target:[\s\S]*replace:/],
    ['15-character anchors', /十五个字/],
  ];
  for (const [name, re] of topics) assert.match(G, re, name);
});

test('the examples in the guideline are valid blocks — and, being fenced, are not written by accident', () => {
  assert.equal(parseNoteBlocks(G).blocks.length, 0, 'fenced examples are ignored by default');
  const { blocks, errors } = parseNoteBlocks(G, { ignoreFenced: false });
  assert.deepEqual(errors, []);
  const create = blocks.find((b) => b.command === 'create');
  const update = blocks.find((b) => b.command === 'update');
  assert.ok(create && create.command === 'create');
  assert.ok(update && update.command === 'update');
  const d = parseDiaryText(create.content, { root: 'diary', path: 'x.txt', mtimeMs: 0, size: 0, archiveFolder: '', requireTag: true, timePrefix: true });
  assert.equal(d.title, create.title, 'the example title matches its first line');
  assert.deepEqual(d.warnings, []);
  assert.ok(create.tags!.every((t) => d.tags.includes(t)), 'header tags also appear in the Tag line');
  assert.ok(anchorLength(update.target) >= 15, 'the example anchor obeys the 15-character rule');
});
