// The engine speaks English in its reasons and warnings (they also go to logs and to the model).
// The console shows them in the reader's language: known shapes are translated here, anything else
// is shown as it came (better an English sentence than a lost one).
import type { Lang } from './messages.ts';

type Rule = [RegExp, (m: RegExpMatchArray) => string];

const ZH_RULES: Rule[] = [
  [/^embedding provider changed: (.*) → (.*)$/, (m) => `Embedding 提供方变更：${m[1]} → ${m[2]}`],
  [/^embedding model changed: (.*) → (.*)$/, (m) => `Embedding 模型变更：${m[1]} → ${m[2]}`],
  [/^embedding endpoint changed: (.*) → (.*)$/, (m) => `Embedding 端点变更：${m[1]} → ${m[2]}`],
  [/^embedding dimensions changed: (.*) → (.*)$/, (m) => `Embedding 维度变更：${m[1]} → ${m[2]}`],
  [/^existing vectors cannot be compared with the new ones: rebuild the index to use the semantic channel again$/, () => '现有向量无法与新向量比较：重建索引后语义搜索才能重新使用'],
  [/^stored vectors have (\d+) dimensions, the embedder produces (\d+)$/, (m) => `已存向量是 ${m[1]} 维，当前模型产生 ${m[2]} 维`],
  [/^no local embedding model installed under (.*): lexical recall only$/, () => '本机没有安装语义模型，只用关键词召回'],
  [/^embedding provider is none(: lexical recall only)?$/, () => '未配置语义模型，只用关键词召回'],
  // Why an index run made no vectors when no semantic channel is open (index/indexer.ts syncVectors).
  [/^semantic channel not configured$/, () => '未配置语义模型，只用关键词召回'],
  [/^Run `engram model install` .*lexical recall works without it\.$/, () => '运行 `engram model install`（或在设置里安装模型）即可加上语义召回；没有它关键词召回照常工作。'],
  [/^Set embedding\.provider to .*lexical recall works without it\.$/, () => '把 embedding 提供方设为 openai 或 local 即可加上语义召回；没有它关键词召回照常工作。'],
  [/^kBase (\d+) \+ (\d+) for (\d+) distinctive tokens, within (\d+)\.\.(\d+)$/, (m) => `基准 ${m[1]} + ${m[2]}（${m[3]} 个有区分度的词），范围 ${m[4]}–${m[5]}`],
  [
    /^one hit per document(?:; (\d+) near-duplicate groups shown once)?(?:; (\d+) moved down: a better hit holds their matching sentences)?$/,
    (m) => `每篇文档只留一条${m[1] ? `；${m[1]} 组近似重复只显示一次` : ''}${m[2] ? `；${m[2]} 条后移：排在前面的记忆已经包含它们命中的句子` : ''}`,
  ],
  [/^(\d+) kept below the hybrid bar: the question names their title \((.*)\)$/s, (m) => `${m[1]} 条低于门槛仍留下：问题点了它们的标题（${m[2]}）`],
  [/^k=(\d+), maxChars=(\d+)$/, (m) => `最多 ${m[1]} 条，字数上限 ${m[2]}`],
  [/^scope: (.*) \+ global$/, (m) => `范围：${m[1]} + 全局`],
  // What a write says about its text (diary/store.ts composeEntry).
  [/^no "> summary" paragraph; recall will use the first (\d+) characters of the body$/, (m) => `没有「> 摘要」段：召回会用正文的前 ${m[1]} 个字`],
  [/^no tags: add a "Tag: a, b" line .*$/, () => '没有标签：在末尾加一行「Tag: 标签一, 标签二」（具体的名字放前面），才能按标签找到它'],
  [/^no title given; using the beginning of the body: "(.*)"$/s, (m) => `没有给标题：用正文开头作标题「${m[1]}」`],
  [/^the entry has a title only: no summary and no body$/, () => '只有标题：没有摘要，也没有正文'],
  [/^invalid time "(.*)" \(expected HH:MM\); using another source$/, (m) => `时间「${m[1]}」无效（应为 HH:MM），改用其他来源`],
  [/^invalid date "(.*)" \(expected YYYY-MM-DD\); using today$/, (m) => `日期「${m[1]}」无效（应为 YYYY-MM-DD），改用今天`],
  [/^(.+?)中去掉了不可见或控制字符 \/ removed invisible or control characters from the \w+: (.*)$/s, (m) => `${m[1]}中去掉了不可见或控制字符：${m[2]}`],
  // Errors of the memory actions (memories/writer.ts, preview/restore.ts, diary/store.ts).
  [/^"(.*)" is already archived$/s, (m) => `「${m[1]}」已经归档了`],
  [/^"(.*)" is not archived$/s, (m) => `「${m[1]}」没有归档，不用恢复`],
  [/^"(.*)" is locked: unlock it before forgetting it$/s, (m) => `「${m[1]}」已锁定：先解锁才能归档`],
  [/^"(.*)" is in the read-only legacy corpus$/s, (m) => `「${m[1]}」属于只读的旧语料，不能修改`],
  [/^"(.*)" changed on disk since it was opened; reload before saving$/s, (m) => `「${m[1]}」在你打开之后被改过了：重新载入后再保存`],
  [/^no memory with id or path "(.*)"$/s, (m) => `找不到记忆「${m[1]}」`],
  [/^a diary titled "(.*)" already exists; change it with an update .*$/s, (m) => `已有同名记忆「${m[1]}」：请在记忆库里修改原来那篇，或换一个标题`],
  // A file's parse warnings (diary/parse.ts), after their "path:line: " prefix.
  [/^missing "> summary" paragraph; using the first (\d+) characters of the body$/, (m) => `缺少「> 摘要」段，用正文的前 ${m[1]} 个字`],
  [/^missing "Tag: …" line at the end$/, () => '末尾缺少「Tag: …」行'],
  [/^empty Tag line$/, () => 'Tag 行是空的'],
  [/^empty file$/, () => '空文件'],
  [/^missing \[HH:MM\] anchor$/, () => '缺少 [HH:MM] 时间'],
  [/^invalid \[HH:MM\] anchor .*$/, () => '[HH:MM] 时间无效（小时 0–23，分钟 0–59）'],
  [/^missing title after the anchor; using the file name$/, () => '时间后面没有标题：用文件名'],
  [/^missing title line; using the file name$/, () => '没有标题行：用文件名'],
];

/** "path:line: message" — the place stays as it is, the message is translated. */
const PLACED = /^(\S+?:\d+): (.+)$/s;

/** Recall stage ids → names a person reads. */
const STAGES_ZH: Record<string, string> = {
  lexical: '关键词搜索',
  semantic: '语义搜索',
  time: '时间通道',
  fuse: '综合排序',
  gate: '相关性检查',
  collapse: '合并同篇',
  decay: '时间衰减',
  select: '选取',
  judge: '裁判',
  pinned: '置顶',
};
const STAGES_EN: Record<string, string> = {
  lexical: 'Lexical', semantic: 'Semantic', time: 'Time channel', fuse: 'Fuse', gate: 'Gates', collapse: 'One per document', decay: 'Time decay', select: 'Select', judge: 'Judge', pinned: 'Pinned',
};

export function stageName(id: string, lang: Lang): string {
  return (lang === 'zh' ? STAGES_ZH : STAGES_EN)[id] ?? id;
}

/** Diary fields a query word matched in. */
const FIELDS_ZH: Record<string, string> = { title: '标题', summary: '摘要', tags: '标签', body: '正文', goal: '目标' };
export function fieldName(id: string, lang: Lang): string {
  return lang === 'zh' ? (FIELDS_ZH[id] ?? id) : id;
}

/** "中文 / English" in one message (the engine's bilingual errors): the reader's half. */
const BILINGUAL = /^([^\n]*?[\u3400-\u9fff][^\n]*?) \/ ([A-Za-z][^\n]*)$/s;

export function engineText(text: string, lang: Lang): string {
  const both = text.match(BILINGUAL);
  if (both) return lang === 'zh' ? both[1]! : both[2]!;
  if (lang !== 'zh') return text;
  for (const [re, fn] of ZH_RULES) {
    const m = text.match(re);
    if (m) return fn(m).replace(/\(none\)/g, '（无）');
  }
  const placed = text.match(PLACED);
  if (placed) {
    const inner = engineText(placed[2]!, lang);
    if (inner !== placed[2]) return `${placed[1]}：${inner}`;
  }
  return text;
}
