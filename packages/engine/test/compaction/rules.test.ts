// The rule classifier, the line splitting in front of it, the language check that keeps foreign
// text out of the rules book, and the book's hit counts and eviction.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isChineseDominant } from '../../src/compaction/language.ts';
import { classifySpan, classifySummary, summarySpans, type RuleTier } from '../../src/compaction/rules.ts';
import { mergeRules, parseRulesBook, renderRulesBook, sameRule, type RuleEntry } from '../../src/compaction/rules-book.ts';
import { splitLines } from '../../src/compaction/text.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const tokenizer = createTokenizer({ kind: 'auto' });
const tokenize = (text: string) => tokenizer.tokenize(text);

const TABLE: [text: string, tier: RuleTier, why: string][] = [
  ['以后接口一律返回 JSON,不要返回 XML。', 'rule', '一律'],
  ['提交前必须跑一遍 npm test。', 'rule', '必须'],
  ['不许在主分支上直接改代码。', 'rule', '不许'],
  ['我们约定周报每周四下午写。', 'rule', '约定'],
  ['别再用 PowerShell 写大段文本。', 'rule', '别再'],
  ['东京节点端口最终定为 8443。', 'rule', 'decision + number'],
  ['这件事已经决定了,大家都同意。', 'drop', 'decision without a number, path or session id'],
  ['教训:写文件前要先备份。', 'note', '教训'],
  ['配置文件在 config/tokyo.yaml 里。', 'note', 'path'],
  ['这次一共迁移了 12 张表。', 'note', 'number'],
  ['用户打了个招呼,随便聊了聊天气。', 'drop', 'no marker'],
  // Mixed language.
  ['所有 API 响应必须带 request-id header,方便排查 trace。', 'rule', 'Chinese with English terms stays a rule'],
  ['The user said every release 必须 be tagged before deploy.', 'note', 'English quoting 必须 is demoted'],
  ['セッションの要約です、必須ではない、必须确认。', 'note', 'Japanese (kana) is demoted'],
  ['デプロイ前に必ずテストする。必须这样做。', 'note', 'kana above a quarter of the letters'],
  ['部署前必须打 tag,参见「リリース手順」。', 'rule', 'Chinese rule quoting a short Japanese title'],
  ['Every release must be tagged before deploy.', 'drop', 'English without markers'],
];

test('classifier table: rule / note / drop, with mixed-language inputs', () => {
  for (const [text, tier, why] of TABLE) assert.equal(classifySpan(text).tier, tier, `${why}: ${text}`);
  assert.equal(classifySpan('The user said every release 必须 be tagged before deploy.').reason, 'demoted:not-chinese');
});

test('Chinese-dominant: Han share of all letters, kana/hangul vetoes', () => {
  const cases: [string, boolean][] = [
    ['中文句子', true],
    ['所有 API 响应必须带 request-id header', true],
    ['Every release must be tagged, 必须', false],
    ['セッションの要約です', false],
    ['데이터베이스를 반드시 백업하세요', false],
    ['ΑΒΓΔΕ 必须', true],
    ['ΑΒΓΔΕΖΗΘΙΚΛΜ 必须', false],
    ['１２３', false],
  ];
  for (const [text, expected] of cases) assert.equal(isChineseDominant(text), expected, text);
});

test('splitLines handles \\n, \\r\\n, \\r, U+2028 and U+2029', () => {
  assert.deepEqual(splitLines('a\nb\r\nc\rd\u2028e\u2029f'), ['a', 'b', 'c', 'd', 'e', 'f']);
  assert.deepEqual(splitLines('a\r\n\r\nb'), ['a', '', 'b'], 'CRLF CRLF is one blank line, not a stray \\r');
});

test('summary spans: every line terminator separates, headings and fences are structure', () => {
  const lines = ['## 决策', '- 以后接口一律返回 JSON。', '- 提交前必须跑一遍测试。', '```', '必须 在代码块里的不算', '```', '配置在 config/a.yaml。'];
  for (const eol of ['\n', '\r\n', '\r', '\u2028', '\u2029']) {
    const spans = summarySpans(lines.join(eol));
    assert.deepEqual(spans, ['以后接口一律返回 JSON。', '提交前必须跑一遍测试。', '配置在 config/a.yaml。'], JSON.stringify(eol));
  }
  // A CRLF summary is not one giant span: each rule is classified on its own.
  const crlf = classifySummary('以后接口一律返回 JSON。\r\n\r\n用户打了个招呼,随便聊了聊天气。\r\n配置在 config/a.yaml。');
  assert.deepEqual(crlf.map((s) => s.tier), ['rule', 'drop', 'note']);
  assert.deepEqual(summarySpans('好的。确认。\n短'), [], 'spans under 8 characters carry nothing');
  assert.deepEqual(summarySpans('版本号是 v1.5 不是 v1.4!然后继续部署到生产环境吧'), ['版本号是 v1.5 不是 v1.4!', '然后继续部署到生产环境吧'], '1.5 is not a sentence end');
});

const entry = (text: string, hits: number, lastSeen: string): RuleEntry => ({ text, hits, firstSeen: lastSeen, lastSeen, lastCompaction: `c-${lastSeen}` });

test('rules book: a repeated rule bumps its hits once per compaction and takes the newest wording', () => {
  const first = mergeRules([], ['以后接口一律返回 JSON 格式。'], { date: '2026-03-01', compactionId: 'c1', max: 30, tokenize });
  assert.equal(first.added, 1);
  const second = mergeRules(first.book, ['以后所有接口一律返回 JSON 格式的数据。'], { date: '2026-03-02', compactionId: 'c2', max: 30, tokenize });
  assert.equal(second.book.length, 1);
  assert.equal(second.book[0]!.hits, 2);
  assert.equal(second.book[0]!.text, '以后所有接口一律返回 JSON 格式的数据。');
  const redelivered = mergeRules(second.book, ['以后所有接口一律返回 JSON 格式的数据。'], { date: '2026-03-02', compactionId: 'c2', max: 30, tokenize });
  assert.equal(redelivered.book[0]!.hits, 2, 'the same compaction does not count twice');
  assert.ok(!sameRule({ text: 'a', hooks: ['json', '接口'] }, { text: 'b', hooks: ['json', '周报', '周四'] }), 'one shared hook is not enough');
});

test('rules book: over the cap, fewest hits go first, oldest first among equals', () => {
  const book = [entry('规则甲必须遵守一', 3, '2026-01-01'), entry('规则乙必须遵守二', 1, '2026-01-05'), entry('规则丙必须遵守三', 1, '2026-01-02'), entry('规则丁必须遵守四', 2, '2026-01-01')];
  const merged = mergeRules(book, ['全新的一条规矩必须写进来'], { date: '2026-02-01', compactionId: 'new', max: 4, tokenize });
  assert.deepEqual(merged.evicted.map((e) => e.text), ['规则丙必须遵守三']);
  assert.equal(merged.book.length, 4);
  assert.ok(merged.book.some((e) => e.text === '全新的一条规矩必须写进来'));
});

test('rules book: render and parse round-trip; lines in other shapes are ignored', () => {
  const book = [entry('以后接口一律返回 JSON。⟦不是结构⟧', 2, '2026-03-01'), entry('提交前必须跑测试', 1, '2026-03-02')];
  const text = renderRulesBook(book, 's1');
  assert.deepEqual(parseRulesBook(text), book);
  assert.deepEqual(parseRulesBook(`${text.replace(/\n/g, '\r\n')}- 人手写的一行\n`), book, 'CRLF after a hand edit still parses');
});
