// English words and code inside any text: the terms of a note and of a question about it meet
// whatever inflection, case, possessive or identifier style each was written in.
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { queryDeps } from '../../src/recall/scoring.ts';
import { latinTerms, MAX_STEMMED_LENGTH, typedNamesOfIdentifiers, wordTerm } from '../../src/text/latin.ts';
import { isStopWord } from '../../src/text/stopwords.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';
import { tokenizerIndexKey, tokenizerWarnings } from '../../src/text/tokenizer-check.ts';

const jieba = createTokenizer({ kind: 'auto' });
const gram = createTokenizer({ kind: 'gram' });
const terms = (word: string) => {
  const out: string[] = [];
  latinTerms(word, out);
  return out;
};
const shared = (a: string, b: string, t = jieba) => {
  const right = new Set(t.tokenize(b));
  return t.tokenize(a).filter((x) => right.has(x));
};

describe('English words', () => {
  it('meet across inflections and case', () => {
    for (const [note, question, words] of [
      ['We scheduled the Meetings for Friday', 'when is the meeting?', 1],
      ['she was running the migration scripts', 'who runs the migration script', 3],
      ['the databases were configured', 'how did we configure the database', 2],
    ] as const) {
      for (const t of [jieba, gram]) assert.equal(shared(note, question, t).length, words, `${note} / ${question}: ${shared(note, question, t).join(' ')}`);
    }
  });

  it('drop function words of questions and chat, before and after stemming', () => {
    assert.deepEqual(jieba.tokenize('What did you do there?'), []);
    assert.deepEqual(jieba.tokenize("I'm not sure, what's that?"), []);
    for (const t of jieba.tokenize('Would you tell me what they were doing with it')) assert.ok(!isStopWord(t), t);
  });

  it('keep an acronym written in capitals, though its lower case is a function word', () => {
    // AM the computer, the IT department, the US, WHO, an HTTP GET: in capitals these name something.
    assert.ok(jieba.tokenize('AM最后把Ted改造成什么样了').includes('am'));
    assert.ok(jieba.tokenize('IT部门的报销流程').includes('it'));
    assert.ok(jieba.tokenize('WHO 发布的指南').includes('who'));
    assert.ok(jieba.tokenize('US sales grew').includes('us'));
    assert.ok(shared('GET /api/users 返回 404', '为什么 GET 请求失败').includes('get'));
    // The same words in lower case or title case stay function words, and so do chat words in capitals.
    assert.ok(!jieba.tokenize('I am here, it is done, who knows').some((t) => ['am', 'it', 'who'].includes(t)));
    assert.ok(!jieba.tokenize('It works. Am I right?').some((t) => ['am', 'it'].includes(t)));
    assert.deepEqual(jieba.tokenize('OK THANKS LGTM'), []);
    assert.deepEqual(jieba.tokenize('OK，继续'), jieba.tokenize('继续'));
  });

  it('keep the owner of a possessive and join a contraction', () => {
    assert.deepEqual(jieba.tokenize("Alice's laptop"), jieba.tokenize('Alice laptop'));
    assert.deepEqual(jieba.tokenize('Alice’s laptop'), jieba.tokenize('Alice laptop'));
    assert.ok(!jieba.tokenize("she doesn't").includes('t'));
    assert.ok(!jieba.tokenize("Bob's").includes('s'));
  });

  it('are stemmed inside Chinese text too', () => {
    assert.ok(shared('周五的 Meetings 改到下午', '会议 meeting 什么时候').includes(terms('meeting')[0]!));
  });
});

describe('code identifiers', () => {
  it('stay whole and yield their parts: camelCase, PascalCase, snake_case, kebab-case, dotted paths', () => {
    const cases: [string, string, string[]][] = [
      ['getUserName', 'getusername', ['get', 'user', 'name']],
      ['HTTPServer', 'httpserver', ['http', 'server']],
      ['api_key', 'api_key', ['api', 'key']],
      ['sing-box', 'sing-box', ['sing', 'box']],
      ['os.path.join', 'os.path.join', ['os', 'path', 'join']],
      ['recall.hybridGate.threshold', 'recall.hybridgate.threshold', ['recal', 'hybrid', 'gate', 'threshold']],
    ];
    for (const [word, whole, parts] of cases) {
      const out = terms(word);
      assert.equal(out[0], whole, word);
      for (const p of parts) assert.ok(out.some((t) => t === p || t.startsWith(p)), `${word}: ${p} in ${out.join(' ')}`);
    }
  });

  it('match a question that names a part in plain words', () => {
    assert.ok(shared('renamed getUserName to fetchUser', 'where is the user name read').length >= 2);
    assert.ok(shared('set MAX_RETRY_COUNT to 5', 'max retry count').length >= 3);
  });

  it('match the same identifier typed in lower case', () => {
    // A question types the name as one word (getuserprofile), which is stemmed as a plain word is.
    for (const [note, question] of [
      ['getUserProfile 接口在高并发下超时', 'getuserprofile 为什么慢'],
      ['HTTPServer keeps the socket open', 'why does httpserver hang'],
      ['renamed fetchAccounts to loadAccounts', 'where is fetchaccounts'],
      // …and with its separators left out, as names like Next.js and sing-box are typed.
      ['前端用 Next.js 15 + Tailwind', 'nextjs 版本'],
      ['Node.js 升级到 20', 'nodejs 升级了吗'],
      ['sing-box 的配置文件', 'singbox 配置'],
      ['set MAX_RETRY_COUNT to 5', 'where is maxretrycount set'],
      // A code whose parts are joined by - or _ is typed joined too (utf-8 → utf8, sha-256 → sha256).
      ['文件编码统一用 UTF-8', 'utf8 编码'],
      ['签名算法改成 SHA-256', 'sha256 签名'],
      // A name with a version glued on is asked about by the name (python3 → python, vue3 → vue).
      ['脚本用 python3 写的', 'python 脚本在哪'],
      ['前端从 Vue2 升级到 Vue3', 'vue 升级'],
    ] as const) {
      assert.ok(shared(note, question).some((t) => /[a-z]/.test(t)), `${note} / ${question}: ${jieba.tokenize(question).join(' ')}`);
    }
  });

  it('are not looked for as typed names when the question writes the identifier itself', () => {
    // The typed name is the note's, for a question that types it so; a question writing getUserProfile
    // matches on the identifier and its parts, and an extra term would count against notes naming the parts.
    const asked = (q: string) => queryDeps({ tokenizer: jieba, config: { aliases: [] }, lexical: { idf: () => 1, hasIdf: () => true, size: 1 } }).tokenize(q);
    assert.ok(jieba.tokenize('getUserProfile 超时').includes('getuserprofil'));
    assert.ok(!asked('getUserProfile 超时').includes('getuserprofil'));
    assert.deepEqual(asked('getUserProfile 超时'), ['getuserprofile', 'user', 'profil', '超时']);
    assert.ok(asked('getuserprofile 为什么慢').includes('getuserprofil'));
    assert.ok(asked('nextjs 和 Next.js').includes('nextj'), 'typed as a word of its own too');
    assert.deepEqual([...typedNamesOfIdentifiers('Next.js 15 + sing-box, v2.24')].sort(), ['nextj', 'singbox']);
  });

  it('do not split an acronym plural into letters', () => {
    assert.deepEqual(terms('APIs'), terms('API'));
    assert.deepEqual(terms('URLs'), terms('url'));
  });
});

describe('numbers, dates, versions and codes', () => {
  it('do not join a dotted version or a date into another number', () => {
    assert.ok(!jieba.tokenize('升级到 v2.24').includes('v224'));
    assert.ok(!jieba.tokenize('2026-10-01 上线').includes('20261001'));
    assert.deepEqual(terms('k8s'), ['k8s'], 'no letters of one character');
  });

  it('are exact terms, never stemmed', () => {
    assert.deepEqual(terms('443'), ['443']);
    assert.deepEqual(terms('utf8'), ['utf8', 'utf'], 'and the name before the version');
    assert.deepEqual(terms('A1B2C3'), ['a1b2c3']);
    assert.equal(terms('v0.2.6')[0], 'v0.2.6');
    assert.equal(terms('2026-10-01')[0], '2026-10-01');
  });

  it('yield the parts that say something alone (a year, a port), not lone digits', () => {
    assert.ok(terms('2026-10-01').includes('2026'));
    assert.ok(!terms('2026-10-01').includes('10') && !terms('2026-10-01').includes('01'));
    assert.ok(terms('192.168.1.20').includes('192'));
    assert.ok(!terms('v0.2.6').includes('2'));
  });
});

describe('the index key', () => {
  it('records the terms version, so an index of older terms is re-tokenised, and warns until it is', () => {
    const active = { engine: 'jieba' as const, fallbackReason: null };
    assert.notEqual(tokenizerIndexKey(active), 'jieba');
    assert.deepEqual(tokenizerWarnings(tokenizerIndexKey(active), active), []);
    const older = tokenizerWarnings('jieba', active);
    assert.equal(older.length, 1);
    assert.match(older[0]!, /older jieba tokenizer/);
    assert.match(tokenizerWarnings('gram+terms2', active)[0]!, /built with gram/);
  });
});

// Porter2's regular expressions take time that grows faster than the word: one 30 KB token (base64, a
// minified line) in a memory blocked the host's event loop for 5 s, 100 KB for a minute. No English
// word is that long, so a word past MAX_STEMMED_LENGTH is a term as written (lower-cased).
test('a word longer than any English word is not stemmed', () => {
  const long = 'Running'.repeat(Math.ceil((MAX_STEMMED_LENGTH + 1) / 7));
  assert.equal(wordTerm(long), long.toLowerCase());
  assert.equal(wordTerm('running'), 'run', 'ordinary words still are');
  const longest = 'pneumonoultramicroscopicsilicovolcanoconioses';
  assert.ok(longest.length <= MAX_STEMMED_LENGTH);
  assert.notEqual(wordTerm(longest), longest, 'the longest dictionary word is still stemmed');
});
