// Message-mode dedupe helpers: pure, tested with tables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatItemPrefix, renderRecallBlock, configSchema } from '@engram/engine';
import { blockKey, itemKey, itemPrefixPattern, normaliseMaxMessages, parseItemsFromText, shownRecall, unseenItems } from '../src/host/recall/dedupe.ts';
import type { UserMessage } from '../src/host/core/host-types.ts';
import { pluginMessage } from '../src/host/sessions/messages.ts';

const injectDefaults = configSchema.parse({}).inject;
const block = (items: { date: string; title: string; text: string }[], attrs: Record<string, string> = {}, prefix = injectDefaults.itemPrefix) =>
  renderRecallBlock(items, { ...injectDefaults, itemPrefix: prefix }, attrs);

test('normaliseMaxMessages: 0 is unlimited, missing is the default, the rest is clamped', () => {
  const table: [unknown, number, number][] = [
    [0, 3, Infinity],
    ['0', 3, Infinity],
    [undefined, 3, 3],
    [null, 3, 3],
    ['', 3, 3],
    ['abc', 3, 3],
    [Number.NaN, 3, 3],
    [5, 3, 5],
    [2.7, 3, 2],
    [-4, 3, Infinity],
    [999, 3, 200],
    [undefined, 0, Infinity],
  ];
  for (const [value, fallback, expected] of table) assert.equal(normaliseMaxMessages(value, fallback), expected, `${String(value)} (default ${fallback})`);
});

test('item prefixes parse back with the template that rendered them', () => {
  const items = [
    { date: '2026-03-01', title: '周报写作流程', text: '正文 [2] 不是前缀' },
    { date: '2026-03-02', title: 'A · B 含分隔符的标题', text: '正文' },
  ];
  const templates = ['[{n}] {date} · {title}', '{n}. {title} ({date})', '#{n} {date} {title}', '  ({date}) {title}  '];
  for (const template of templates) {
    const text = block(items, {}, template);
    assert.deepEqual(parseItemsFromText(text, template), items.map(({ date, title }) => ({ date, title })), template);
  }
  for (const template of ['[{n}] {title}', '[{n}] {date}', '']) {
    assert.equal(itemPrefixPattern(template), null, `"${template}" cannot identify an item`);
    assert.equal(parseItemsFromText(block(items, {}, template), template), null, `"${template}": cannot tell, not "nothing shown"`);
  }
  assert.equal(formatItemPrefix('[{n}] {date} · {title}', 3, items[0]!), '[3] 2026-03-01 · 周报写作流程');
});

test('blockKey ignores the opening tag attributes and whitespace, not content', () => {
  const items = [{ date: '2026-03-01', title: 't', text: 'body' }];
  assert.equal(blockKey(block(items, { reason: 'first-turn' })), blockKey(block(items, { reason: 'phase-change' })));
  assert.equal(blockKey(block(items)), blockKey(`${block(items)}\n\n`));
  assert.notEqual(blockKey(block(items)), blockKey(block([{ ...items[0]!, text: 'other body' }])));
});

test('shownRecall reads items from metadata, and legacy blocks from their text', () => {
  const a = { date: '2026-03-01', title: '周报写作流程', text: 'x' };
  const b = { date: '2026-03-02', title: '东京节点端口处置', text: 'y' };
  const c = { date: '2026-03-03', title: '数据库迁移复盘', text: 'z' };
  const withMeta = pluginMessage('recall', block([a]), { items: [{ date: a.date, title: a.title }] });
  // Written before item metadata existed: only the rendered text tells what it showed.
  const legacy: UserMessage = { id: 'old', role: 'user', content: [{ type: 'text', text: block([b]) }], source: { kind: 'plugin', plugin: 'engram', form: 'recall' } };
  // Metadata wins over parsing: an item cut by the budget is not listed, even though its prefix is in the text.
  const truncated = pluginMessage('recall', block([c]), { items: [] });
  const shown = shownRecall([withMeta, legacy, truncated], [injectDefaults.itemPrefix]);
  assert.equal(shown.blocks, 3);
  assert.ok(shown.itemKeys.has(itemKey(a)));
  assert.ok(shown.itemKeys.has(itemKey(b)), 'legacy block parsed back');
  assert.ok(!shown.itemKeys.has(itemKey(c)), 'truncated item not counted as shown');
  assert.deepEqual(unseenItems([a, b, c], shown), [c]);
  // A template change: legacy text rendered with the old default is still understood via the fallback list.
  const changed = shownRecall([legacy], ['{n}. {title} ({date})', injectDefaults.itemPrefix]);
  assert.ok(changed.itemKeys.has(itemKey(b)));
});

test('identity is date + title, not the text: a typo fix does not re-inject', () => {
  const shown = shownRecall([pluginMessage('recall', 'x', { items: [{ date: '2026-03-01', title: 't' }] })], []);
  assert.deepEqual(unseenItems([{ date: '2026-03-01', title: 't', text: 'fixed typo' }], shown), []);
  assert.equal(unseenItems([{ date: '2026-03-02', title: 't', text: '' }], shown).length, 1, 'same title, other day: another memory');
});
