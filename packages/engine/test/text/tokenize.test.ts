import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { loadBundledJieba, obtainJieba, parseUserDictLine } from '../../src/text/jieba.ts';
import { isStopWord } from '../../src/text/stopwords.ts';
import { forEachRun } from '../../src/text/scripts.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const jieba = createTokenizer({ kind: 'auto' });
const gram = createTokenizer({ kind: 'gram' });
const wordsOfTwoOrMore = (tokens: string[]) => tokens.filter((t) => Array.from(t).length >= 2);

describe('jieba tokenizer', () => {
  it('resolves auto to jieba when the package loads', () => {
    assert.equal(jieba.engine, 'jieba');
    assert.equal(jieba.fallbackReason, null);
  });

  it('keeps numbers next to Chinese words', () => {
    const tokens = jieba.tokenize('东京节点 443 端口');
    for (const expected of ['东京', '节点', '443', '端口']) assert.ok(tokens.includes(expected), expected);
  });

  it('segments a Chinese sentence into whole words and drops function words', () => {
    const tokens = jieba.tokenize('调高对话消息召回的上限');
    for (const expected of ['上限', '召回', '对话', '消息']) assert.ok(tokens.includes(expected), expected);
    assert.ok(!tokens.includes('的'));
  });

  it('keeps code-like latin words whole and also yields their parts', () => {
    const tokens = jieba.tokenize('升级 sing-box 到 v0.2.6,设置 api_key');
    for (const expected of ['sing-box', 'sing', 'box', 'v0.2.6', 'v0', 'api_key', 'api', 'key']) {
      assert.ok(tokens.includes(expected), expected);
    }
  });

  it('lower-cases latin and folds full-width forms', () => {
    // nodej: the name typed as one word (nodejs), stemmed as a plain word is (text/latin.ts).
    assert.deepEqual(jieba.tokenize('Node.JS'), ['node.js', 'nodej', 'node', 'js']);
    assert.deepEqual(jieba.tokenize('ＡＰＩ　Ｋｅｙ'), ['api', 'key']);
  });

  it('drops punctuation and whitespace', () => {
    const tokens = jieba.tokenize('上限,召回。  \n「对话」!?');
    assert.ok(tokens.every((t) => /[\p{L}\p{N}]/u.test(t)), tokens.join('|'));
  });

  it('reduces chatter to (almost) nothing', () => {
    assert.deepEqual(wordsOfTwoOrMore(jieba.tokenize('修了,再简单测一下')), []);
    assert.deepEqual(jieba.tokenize('好的继续'), []);
    assert.deepEqual(jieba.tokenize('看看效果'), ['效果']);
    assert.ok(wordsOfTwoOrMore(jieba.tokenize('这条应该能看见了 不要用工具先')).length <= 1);
  });

  it('adds bigrams over single characters jieba could not join (domain words missing from the dictionary)', () => {
    const tokens = jieba.tokenize('条目级去重');
    assert.ok(tokens.includes('去重'));
    assert.ok(tokens.includes('条目'));
  });

  it('loads user dictionary words and reports bad lines without throwing', () => {
    // A private segmenter, so the shared one (and other tests) never see these words.
    const plain = createTokenizer({ kind: 'jieba', loadJieba: () => loadBundledJieba() });
    const withDict = createTokenizer({
      kind: 'jieba',
      loadJieba: () => loadBundledJieba(),
      userDict: ['实词判据 100 n', '语义闸门', '坏行 abc', '', '# comment'],
    });
    assert.ok(!plain.tokenize('实词判据很重要').includes('实词判据'));
    assert.ok(withDict.tokenize('实词判据很重要').includes('实词判据'));
    assert.ok(withDict.tokenize('语义闸门打开').includes('语义闸门'));
    assert.equal(withDict.userDictErrors.length, 1);
    assert.match(withDict.userDictErrors[0]!, /坏行/);
  });

  it('builds the bundled segmenter once per process', () => {
    const first = obtainJieba();
    const second = obtainJieba();
    assert.ok(first.ok && second.ok);
    assert.equal(first.jieba, second.jieba);
  });
});

describe('gram tokenizer', () => {
  it('emits every CJK character and every adjacent pair', () => {
    assert.deepEqual(gram.tokenize('东京端口'), ['东', '东京', '京', '京端', '端', '端口', '口']);
    assert.equal(gram.engine, 'gram');
    assert.equal(gram.fallbackReason, null);
  });

  it('drops stop characters and pairs made only of stop characters, keeps latin words', () => {
    const tokens = gram.tokenize('我的端口 443');
    assert.ok(!tokens.includes('我') && !tokens.includes('的') && !tokens.includes('我的'));
    assert.ok(tokens.includes('端口') && tokens.includes('443'));
  });

  it('keeps characters outside the basic plane intact', () => {
    const tokens = gram.tokenize('𠮷野家');
    assert.ok(tokens.includes('𠮷'));
    assert.ok(tokens.includes('𠮷野'));
    assert.ok(tokens.every((t) => t.match(/[\uD800-\uDFFF]/u) === null));
  });

  it('never loads jieba', () => {
    let calls = 0;
    createTokenizer({ kind: 'gram', loadJieba: () => (calls++, loadBundledJieba()) });
    assert.equal(calls, 0);
  });
});

describe('fallback when jieba cannot load', () => {
  const failingLoader = () => {
    throw new Error('Cannot find module @node-rs/jieba-linux-x64-gnu');
  };

  for (const kind of ['auto', 'jieba'] as const) {
    it(`${kind} falls back to gram and says why`, () => {
      const tokenizer = createTokenizer({ kind, loadJieba: failingLoader });
      assert.equal(tokenizer.engine, 'gram');
      assert.match(tokenizer.fallbackReason ?? '', /jieba-linux-x64-gnu/);
      assert.deepEqual(tokenizer.tokenize('东京节点'), gram.tokenize('东京节点'));
    });
  }
});

describe('token shape (generated inputs)', () => {
  // Tokens are stored space-joined (index/rows.ts), so none may be empty or contain whitespace.
  it('never yields empty tokens, whitespace, lone surrogates or stop words (but acronyms)', () => {
    const unit = fc.oneof(
      fc.constantFrom('东', '京', '的', '了', '一下', ' ', '\n', '-', '_', '.', 'Ab', '443', 'AM', 'am', 'OK'),
      fc.constantFrom('𠮷', '😀', '，', '。', '\u3000', 'ｘ'),
      fc.string({ maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }).map((parts) => parts.join('')), (text) => {
        for (const tokenizer of [jieba, gram]) {
          for (const token of tokenizer.tokenize(text)) {
            assert.ok(token.length > 0 && !/\s/.test(token), JSON.stringify(token));
            assert.equal(token.match(/[\uD800-\uDFFF]/u), null);
            // …except an acronym the text writes in capitals (AM, IT: text/latin.ts).
            const inCapitals = /^[a-z]{2,}$/.test(token) && new RegExp(`(?<![A-Za-z0-9])${token.toUpperCase()}(?![A-Za-z0-9])`).test(text.normalize('NFKC'));
            assert.ok(!isStopWord(token) || inCapitals, token);
            assert.equal(token, token.toLowerCase());
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('user dictionary lines', () => {
  it('adds a default frequency and validates the shape', () => {
    assert.deepEqual(parseUserDictLine('去重'), { line: '去重 2000' });
    assert.deepEqual(parseUserDictLine('  去重  100  v '), { line: '去重 100 v' });
    assert.equal(parseUserDictLine('   '), null);
    assert.equal(parseUserDictLine('# note'), null);
    assert.ok('error' in parseUserDictLine('去重 many')!);
    assert.ok('error' in parseUserDictLine('a 1 n extra')!);
  });
});

describe('stop words', () => {
  it('covers conversational fillers but not topic words', () => {
    for (const word of ['一下', '应该', '不要', '看看', '好的', '可以', '这个', '然后', '就是', '的', 'the']) {
      assert.ok(isStopWord(word), word);
    }
    for (const word of ['上限', '召回', '工具', '端口', '443']) assert.ok(!isStopWord(word), word);
  });
});

describe('one jieba call per text', () => {
  const real = loadBundledJieba();
  const counting = (cutOf: (s: string, hmm?: boolean) => string[]) => {
    const calls: string[] = [];
    const tokenizer = createTokenizer({
      kind: 'jieba',
      loadJieba: () => ({ cut: (s: string, hmm?: boolean) => (calls.push(s), cutOf(s, hmm)), cutForSearch: (s: string, hmm?: boolean) => real.cutForSearch(s, hmm), loadDict: (d: Uint8Array) => real.loadDict(d) }),
    });
    return { tokenizer, calls };
  };
  const mixed = '我在东京节点的443端口部署了sing-box，版本v0.2.6。カタカナ와한글混在する文章也要切分；emoji😀之后还有𠀋字。Node.js的api_key在这里';
  const cjkRuns = (text: string) => {
    const runs: string[] = [];
    forEachRun(text.normalize('NFKC'), (run) => runs.push(run), () => {});
    return runs;
  };

  it('cuts runs joined by line breaks exactly as it cuts each run alone, in every mode (the real jieba)', () => {
    const alphabet = [...'我在东京节点的端口部署了版本也要切分之后还有字这里中华人民共和国成立于年月日北京大学生活动中心カタカナ와한글ー𠀋😀 ，。；!?abcXYZ0123-_.'];
    const modes = [(s: string) => real.cut(s, false), (s: string) => real.cut(s, true), (s: string) => real.cutForSearch(s, false), (s: string) => real.cutForSearch(s, true)];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 80 }), fc.constantFrom(...modes), (chars, cut) => {
        const runs = cjkRuns(chars.join(''));
        if (runs.length === 0) return;
        const alone = runs.flatMap((run, i) => [...(i > 0 ? ['\n'] : []), ...cut(run)]);
        assert.deepEqual(cut(runs.join('\n')), alone);
      }),
      { numRuns: 400 },
    );
  });

  it('makes one call for a text of many runs and yields the same words as one call per run', () => {
    const { tokenizer, calls } = counting((s, hmm) => real.cut(s, hmm));
    const tokens = tokenizer.tokenize(mixed);
    assert.ok(cjkRuns(mixed).length > 5);
    assert.equal(calls.length, 1);
    const oneEach = cjkRuns(mixed).flatMap((run) => jieba.tokenize(run).filter((t) => !/^[\x00-\x7f]+$/.test(t)));
    assert.deepEqual(tokens.filter((t) => !/^[\x00-\x7f]+$/.test(t)), oneEach);
    for (const expected of ['东京', '节点', '443', '端口', 'sing-box', 'v0.2.6', 'node.js', 'api_key']) assert.ok(tokens.includes(expected), expected);
  });

  it('cuts each run alone when the joined cut does not come back with one break between runs', () => {
    // A segmenter that drops line breaks (as a jieba that treated them as spaces might).
    const { tokenizer, calls } = counting((s, hmm) => real.cut(s, hmm).filter((w) => w !== '\n'));
    assert.deepEqual(tokenizer.tokenize(mixed), jieba.tokenize(mixed));
    assert.equal(calls.length, 1 + cjkRuns(mixed).length);
  });
});
