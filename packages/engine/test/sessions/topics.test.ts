// The topic split that makes one import memory per topic: relations, not thresholds — two unrelated
// requests in one session are two topics, a request and its follow-ups are one, a person who says
// they change the subject is taken at their word — with both tokenizers the engine may run on, and
// the property the import's idempotence rests on: a log that grows never moves an earlier turn.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionTurn } from '../../src/sessions/log.ts';
import { splitTopics } from '../../src/sessions/topics.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';
import { prng } from './fixtures.ts';

const TOKENIZERS = [
  ['jieba', createTokenizer({ kind: 'auto' })],
  ['gram', createTokenizer({ kind: 'gram' })],
] as const;

const turnsOf = (pairs: readonly (readonly [string, string])[]): SessionTurn[] =>
  pairs.map(([user, assistant], i) => ({ turn: i + 1, startedAt: null, user, assistant, tools: [], thinking: '' }));

const ranges = (pairs: readonly (readonly [string, string])[], tokenizer: (typeof TOKENIZERS)[number][1]) =>
  splitTopics(turnsOf(pairs), { tokenizer }).map((t) => [t.from, t.to]);

const PORT = ['东京节点 443 端口被占用了怎么办?', '443 被 nginx 占用。结论:东京节点改用 8443 端口,并重启 sing-box。'] as const;
const REPORT = ['周报应该怎么写?', '周报每周五下午写,列三件事。'] as const;
const MIGRATION = ['数据库迁移脚本跑失败了,报 duplicate column', '说明这列已经加过了,迁移要先检查列是否存在。'] as const;

for (const [name, tokenizer] of TOKENIZERS) {
  test(`${name}: two unrelated requests in one session are two topics`, () => {
    assert.deepEqual(ranges([PORT, REPORT], tokenizer), [
      [1, 1],
      [2, 2],
    ]);
    assert.deepEqual(ranges([REPORT, MIGRATION, PORT], tokenizer), [
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  test(`${name}: two unrelated technical requests are two topics, though their answers share the trade's words`, () => {
    const session = [
      ['nginx 的 443 端口被占用了', '查看配置文件 /etc/nginx/nginx.conf,修改 listen 端口,然后运行 nginx -s reload 命令。'],
      ['Python 虚拟环境怎么建?', '运行 python -m venv .venv 命令,然后修改 PATH,配置文件不用动。'],
    ] as const;
    assert.deepEqual(ranges(session, tokenizer), [
      [1, 1],
      [2, 2],
    ]);
  });

  test(`${name}: one request and its follow-ups are one topic (shared words, the answer's words, nothing new said)`, () => {
    const continuing = [
      PORT,
      ['好的,就这么改吧', '已经把 sing-box 的入站端口改成 8443 并重启。'],
      ['防火墙要不要放行 8443?', '要,ufw allow 8443/tcp。'],
      ['为什么?', '不放行的话外面连不进来。'],
      ['能不能写成脚本?', '可以:ufw allow 8443/tcp && systemctl restart sing-box。'],
      ['那重启以后 nginx 会不会又抢 443?', '不会,nginx 仍然监听 443,sing-box 用 8443。'],
    ] as const;
    assert.deepEqual(ranges(continuing, tokenizer), [[1, 6]]);
  });

  test(`${name}: a follow-up, then something else, then back to a follow-up of the new thing`, () => {
    const session = [
      ['帮我把 README 翻译成英文', 'Here is the English README: Engram is long-term memory for agents.'],
      ['README 标题那一段再口语化一点', '改好了:Engram remembers what you told it.'],
      ['换个话题,周末去杭州玩有什么推荐?', '西湖、灵隐寺、龙井村。'],
      ['灵隐寺门票多少钱?', '灵隐寺香花券 45 元,飞来峰景区 75 元。'],
      ['谢谢', '不客气。'],
      MIGRATION,
    ] as const;
    assert.deepEqual(ranges(session, tokenizer), [
      [1, 2],
      [3, 5],
      [6, 6],
    ]);
  });

  test(`${name}: English sessions split the same way`, () => {
    const session = [
      ['The build fails with "cannot find module zod" in packages/engine', 'Run npm ci at the root; zod is a dependency of @engram/engine.'],
      ['still failing after npm ci', 'Check the lockfile: zod 4.6.7 must be listed under packages/engine.'],
      ['What is a good name for my cat?', 'Mochi, Pepper or Miso.'],
    ] as const;
    assert.deepEqual(ranges(session, tokenizer), [
      [1, 2],
      [3, 3],
    ]);
  });
}

test('saying the subject changes starts a topic even when a word is shared; half the words shared keeps it', () => {
  const tokenizer = TOKENIZERS[0][1];
  assert.deepEqual(ranges([PORT, ['另外一个问题:公司内网的端口怎么查?', '用 ss -ltnp 看监听的端口。']], tokenizer), [
    [1, 1],
    [2, 2],
  ]);
  assert.deepEqual(ranges([PORT, ['另一个问题,东京节点 443 端口还被占用吗?', '已经释放了。']], tokenizer), [[1, 2]]);
  // The split reads words, not meaning: a shared place name (one word in three) keeps a turn in the
  // topic; said with 对了 (by the way), half its words must be shared.
  const hotel = ['东京的酒店推荐哪家?', '新宿的酒店交通方便。'] as const;
  assert.deepEqual(ranges([PORT, hotel], tokenizer), [[1, 2]]);
  assert.deepEqual(ranges([PORT, [`对了,${hotel[0]}`, hotel[1]]], tokenizer), [
    [1, 1],
    [2, 2],
  ]);
});

test('a turn the person did not start stays with the topic; every turn is in exactly one topic, in order', () => {
  const tokenizer = TOKENIZERS[0][1];
  const turns = turnsOf([PORT, ['', '(继续执行中)'], REPORT]);
  const topics = splitTopics(turns, { tokenizer });
  assert.deepEqual(
    topics.map((t) => t.turns.map((x) => x.turn)),
    [[1, 2], [3]],
  );
  assert.deepEqual(splitTopics([], { tokenizer }), []);
});

test('a growing log never moves an earlier turn: each prefix splits as the whole log does, up to its last topic', () => {
  const tokenizer = TOKENIZERS[0][1];
  const pool = [PORT, REPORT, MIGRATION, ['好的', '嗯。'], ['8443 要开防火墙吗', '要。'], ['周报要写几条?', '三条。'], ['迁移先备份吗', '先备份。']] as const;
  const rnd = prng(7);
  for (let run = 0; run < 40; run++) {
    const pairs = Array.from({ length: 3 + Math.floor(rnd() * 8) }, () => pool[Math.floor(rnd() * pool.length)]!);
    const whole = ranges(pairs, tokenizer);
    for (let n = 1; n <= pairs.length; n++) {
      const prefix = ranges(pairs.slice(0, n), tokenizer);
      const expected = whole.filter(([from]) => from! <= n).map(([from, to]) => [from, Math.min(to!, n)]);
      assert.deepEqual(prefix, expected, `run ${run}, first ${n} turns`);
    }
  }
});
