// Every option the engine reads, as a control on the Settings page. Declared as data so a test can
// prove that no config path lacks a control (a backend option without a control is a silent bug).

export type FieldKind = 'text' | 'number' | 'bool' | 'select' | 'textarea' | 'lines' | 'secret' | 'readonly' | 'memories' | 'aliases' | 'template';

export type Pair = readonly [zh: string, en: string];

export interface FieldSpec {
  /** Dotted config path. */
  path: string;
  kind: FieldKind;
  label: Pair;
  help?: Pair;
  options?: readonly string[];
  min?: number;
  max?: number;
  step?: number;
  /** Only shown when this returns true for the current draft. */
  showIf?: (get: (path: string) => unknown) => boolean;
  /** Takes effect after a restart of the process that reads it. */
  restart?: boolean;
  placeholder?: Pair;
}

export interface SectionSpec {
  id: string;
  letter: string;
  title: Pair;
  description?: Pair;
  fields: FieldSpec[];
  /** Extra tool rendered under the fields. */
  tool?: 'test-embedding' | 'note-preview';
}

const providerIs = (...p: string[]) => (get: (path: string) => unknown) => p.includes(String(get('embedding.provider')));
const judgeOn = (get: (path: string) => unknown) => get('judge.enabled') === true;
const compactionOn = (get: (path: string) => unknown) => get('compaction.enabled') !== false;
const assistOn = (get: (path: string) => unknown) => compactionOn(get) && get('compaction.assist.mode') !== 'off';
const assistModel = (get: (path: string) => unknown) => compactionOn(get) && get('compaction.assist.mode') === 'model';
const messageMode = (path: string) => (get: (p: string) => unknown) => get(path) === 'message';

export const SECTIONS: SectionSpec[] = [
  {
    id: 'embedding',
    letter: 'A',
    title: ['Embedding 渠道', 'Embedding channel'],
    description: ['向量通道的来源。改变提供方、模型、端点或维度会改变指纹，需要全量重建。', 'Where vectors come from. Changing provider, model, endpoint or dimensions changes the fingerprint and needs a full rebuild.'],
    tool: 'test-embedding',
    fields: [
      { path: 'embedding.provider', kind: 'select', options: ['auto', 'none', 'openai', 'local'], label: ['提供方', 'Provider'], help: ['auto = 已安装的本地模型（engram model install），否则只用词法；none = 只用词法召回', 'auto = the installed local model (engram model install), else lexical; none = lexical recall only'] },
      { path: 'embedding.baseUrl', kind: 'text', label: ['Base URL', 'Base URL'], placeholder: ['https://api.example.com/v1', 'https://api.example.com/v1'], showIf: providerIs('openai') },
      { path: 'embedding.model', kind: 'text', label: ['模型', 'Model'], showIf: providerIs('openai', 'local') },
      { path: 'embedding.apiKey', kind: 'secret', label: ['API Key', 'API key'], showIf: providerIs('openai') },
      { path: 'embedding.modelDir', kind: 'text', label: ['本地模型目录', 'Local model directory'], help: ['含 onnx/model.onnx 与 tokenizer.json', 'Holds onnx/model.onnx and tokenizer.json'], showIf: providerIs('local') },
      { path: 'embedding.dimensions', kind: 'number', min: 0, max: 65536, label: ['维度', 'Dimensions'], help: ['0 = 按模型默认', '0 = model default'] },
      { path: 'embedding.batchSize', kind: 'number', min: 1, max: 2048, label: ['批量', 'Batch size'] },
      { path: 'embedding.concurrency', kind: 'number', min: 1, max: 32, label: ['并发', 'Concurrency'] },
      { path: 'embedding.minIntervalMs', kind: 'number', min: 0, max: 60000, label: ['请求间隔（ms）', 'Min interval (ms)'] },
      { path: 'embedding.timeoutMs', kind: 'number', min: 100, max: 600000, label: ['超时（ms）', 'Timeout (ms)'] },
      { path: 'embedding.maxRetries', kind: 'number', min: 0, max: 20, label: ['最大重试', 'Max retries'] },
      { path: 'embedding.pooling', kind: 'select', options: ['auto', 'cls', 'mean'], label: ['池化方式', 'Pooling'], help: ['auto = 按模型元数据（BGE 用 [CLS]）；改动后需重建向量', 'auto = from the model metadata (BGE uses [CLS]); needs a vector rebuild'], showIf: providerIs('auto', 'local') },
      { path: 'embedding.queryInstruction', kind: 'text', label: ['查询前缀指令', 'Query instruction'], help: ['只加在查询前，不加在记忆上；空 = 不加', 'Prepended to queries only, never to memories; empty = none'], showIf: providerIs('auto', 'local') },
      { path: 'embedding.threads', kind: 'number', min: 0, max: 64, label: ['本地模型线程数', 'Local model threads'], help: ['0 = 运行时默认（全部核心）', '0 = runtime default (all cores)'], showIf: providerIs('auto', 'local') },
      { path: 'embedding.batchTokens', kind: 'number', min: 512, max: 262144, step: 512, label: ['每批 token 上限', 'Tokens per batch'], help: ['按长度分桶后每批最多这么多 token；在 2 核上 512（每次一个窗口）最省 CPU，更大的批反而更慢、更占内存（docs/benchmarks.md）', 'Length-bucketed batches hold at most this many tokens; on 2 cores 512 (one window per run) costs the least CPU, larger batches are slower and use more memory (docs/benchmarks.md)'], showIf: providerIs('auto', 'local') },
      { path: 'embedding.withMetadata', kind: 'bool', label: ['标题、摘要、标签一并嵌入', 'Embed title, summary and tags'], help: ['改动后需重建向量', 'Needs a vector rebuild'] },
      { path: 'chunk.windowTokens', kind: 'number', min: 32, max: 8192, step: 32, label: ['模型窗口（token）', 'Model window (tokens)'], help: ['长片段按这个长度切成几个窗口分别嵌入再平均；不超过模型上限。改动后下次索引重新嵌入全部片段', 'A long passage is embedded in windows of this length, averaged; capped at the model limit. After a change the next index run embeds every passage again'], showIf: providerIs('auto', 'local') },
      { path: 'chunk.windowOverlap', kind: 'number', min: 0, max: 4096, step: 16, label: ['窗口重叠（token）', 'Window overlap (tokens)'], showIf: providerIs('auto', 'local') },
      { path: 'chunk.embed', kind: 'select', options: ['header+body', 'body', 'header+first-window'], label: ['嵌入内容', 'What is embedded'], help: ['header+body = 标题、摘要、标签加正文的每个窗口；body = 只嵌正文；header+first-window = 只嵌第一个窗口', 'header+body = title, summary and tags, then every window of the body; body = the body only; header+first-window = the first window only'], showIf: providerIs('auto', 'local') },
    ],
  },
  {
    id: 'recall',
    letter: 'B',
    title: ['召回参数', 'Recall parameters'],
    description: ['分词、BM25、融合权重、K 的上下界、注入字数、时间衰减与分块。', 'Tokenizer, BM25, fusion weights, K bounds, injected size, time decay and chunking.'],
    fields: [
      { path: 'recall.tokenizer', kind: 'select', options: ['auto', 'jieba', 'gram'], label: ['分词器', 'Tokenizer'], help: ['改动后需重建索引', 'Needs a rebuild'] },
      { path: 'recall.singleCharWeight', kind: 'number', min: 0, max: 1, step: 0.05, label: ['单字权重', 'Single-character weight'] },
      { path: 'recall.userDict', kind: 'lines', label: ['用户词典', 'User dictionary'], help: ['每行「词 词频 词性」', 'One "word freq tag" per line'] },
      { path: 'recall.bm25K1', kind: 'number', min: 0, max: 5, step: 0.1, label: ['BM25 k1', 'BM25 k1'] },
      { path: 'recall.bm25B', kind: 'number', min: 0, max: 1, step: 0.05, label: ['BM25 b', 'BM25 b'] },
      { path: 'recall.fieldWeights.title', kind: 'number', min: 0, max: 20, step: 0.5, label: ['字段权重：标题', 'Field weight: title'] },
      { path: 'recall.fieldWeights.summary', kind: 'number', min: 0, max: 20, step: 0.5, label: ['字段权重：摘要', 'Field weight: summary'] },
      { path: 'recall.fieldWeights.tags', kind: 'number', min: 0, max: 20, step: 0.5, label: ['字段权重：标签', 'Field weight: tags'] },
      { path: 'recall.fieldWeights.body', kind: 'number', min: 0, max: 20, step: 0.5, label: ['字段权重：正文', 'Field weight: body'] },
      { path: 'recall.fieldWeights.goal', kind: 'number', min: 0, max: 20, step: 0.1, label: ['字段权重：目标', 'Field weight: goal'] },
      { path: 'recall.lexicalLimit', kind: 'number', min: 1, max: 500, label: ['关键词候选数', 'Keyword candidates'] },
      { path: 'recall.semanticLimit', kind: 'number', min: 1, max: 500, label: ['语义候选数', 'Meaning candidates'] },
      { path: 'recall.kBase', kind: 'number', min: 1, max: 50, label: ['注入条数：基准', 'Items injected: base'] },
      { path: 'recall.kMin', kind: 'number', min: 1, max: 50, label: ['注入条数：至少', 'Items injected: at least'] },
      { path: 'recall.kMax', kind: 'number', min: 1, max: 50, label: ['注入条数：至多', 'Items injected: at most'] },
      { path: 'recall.maxChars', kind: 'number', min: 200, max: 100000, step: 100, label: ['注入字数上限', 'Max injected characters'] },
      { path: 'recall.rrfK', kind: 'number', min: 1, max: 1000, label: ['综合排序的平滑常数', 'Rank fusion constant'] },
      { path: 'recall.semanticWeight', kind: 'number', min: 0, max: 10, step: 0.1, label: ['语义一路的权重', 'Meaning weight'] },
      { path: 'recall.lexicalWeight', kind: 'number', min: 0, max: 10, step: 0.1, label: ['关键词一路的权重', 'Keyword weight'] },
      { path: 'recall.english.semanticWeight', kind: 'number', min: 0, max: 10, step: 0.05, label: ['英文提问的语义权重', 'Meaning weight, English questions'], help: ['内置的中文模型（bge-small-zh）读英文时，语义只重排关键词找到的笔记，不自己带进新笔记，用这个权重；0 = 只按关键词排序', 'With the built-in Chinese model (bge-small-zh), meaning only reorders the notes the words found for an English question, never brings in notes of its own, at this weight; 0 = the words\' order alone'] },
      { path: 'recall.phraseWeight', kind: 'number', min: 0, max: 10, step: 0.1, label: ['原句相似的加分', 'Phrase bonus'], help: ['问题里相邻的字在记忆中照样出现时加分；0 = 关', 'Bonus when a memory repeats the question’s wording; 0 = off'] },
      { path: 'timeDecay.enabled', kind: 'bool', label: ['时间衰减', 'Time decay'] },
      { path: 'timeDecay.halfLifeDays', kind: 'number', min: 1, max: 36500, label: ['半衰期（天）', 'Half-life (days)'], showIf: (g) => g('timeDecay.enabled') === true },
      { path: 'timeDecay.floor', kind: 'number', min: 0, max: 1, step: 0.05, label: ['衰减下限', 'Decay floor'], showIf: (g) => g('timeDecay.enabled') === true },
      { path: 'chunk.size', kind: 'number', min: 100, max: 20000, step: 50, label: ['片段长度（字）', 'Passage length (chars)'], help: ['改动后需重建索引', 'Needs a rebuild'] },
      { path: 'chunk.overlap', kind: 'number', min: 0, max: 5000, step: 10, label: ['片段重叠（字）', 'Passage overlap (chars)'] },
    ],
  },
  {
    id: 'gates',
    letter: 'B2',
    title: ['相关性闸门与裁判', 'Relevance gates and judge'],
    description: ['宁可不注入，也不注入噪声。', 'Better to inject nothing than noise.'],
    fields: [
      { path: 'recall.minTokenLen', kind: 'number', min: 0, max: 10, label: ['区分词最短长度', 'Distinctive token min length'] },
      { path: 'recall.minTokenIdf', kind: 'number', min: 0, max: 20, step: 0.1, label: ['区分词最低 IDF', 'Distinctive token min IDF'] },
      { path: 'recall.minSpecificity', kind: 'number', min: 0, max: 2, step: 0.02, label: ['特异度下限', 'Min specificity'], help: ['0.75 × 覆盖率 + 命中词中最稀有词的相对 IDF；调高 = 更少误注入，也更可能漏召回；0 = 关闭', '0.75 × coverage + relative IDF of the rarest matched word; higher = less noise, more misses; 0 = off'] },
      { path: 'recall.minCoverage', kind: 'number', min: 0, max: 1, step: 0.05, label: ['词法覆盖率下限', 'Min lexical coverage'], help: ['词法命中至少要解释查询权重的这一比例；0 = 关闭', 'A lexical hit must explain at least this share of the query weight; 0 = off'] },
      { path: 'recall.english.minCoverage', kind: 'number', min: 0, max: 1, step: 0.05, label: ['英文提问的覆盖率下限', 'Min coverage, English questions'], help: ['英文提问往往很长，单条记忆只对上其中几个词；0 = 关闭', 'English questions are long and a note matches few of their words; 0 = off'] },
      { path: 'recall.english.minSpecificity', kind: 'number', min: 0, max: 2, step: 0.05, label: ['英文提问的特异度下限', 'Min specificity, English questions'], help: ['同上面的特异度，只用于英文提问；0 = 关闭', 'As above, for English questions only; 0 = off'] },
      { path: 'recall.english.minQueryInformation', kind: 'number', min: 0, max: 100, step: 0.5, label: ['英文提问的信息量下限', 'Min information, English questions'], help: ['只有一个常见词的英文闲聊（that\'s weird）不召回；0 = 关闭', 'English small talk with one common word (that\'s weird) recalls nothing; 0 = off'] },
      { path: 'recall.english.minLoneWordInformation', kind: 'number', min: 0, max: 100, step: 0.5, label: ['英文单个词提问的信息量下限', 'Min information, one-word English questions'], help: ['英文消息只有一个有信息的词时，这个词要比日常用语少见（same error、try harder 不召回；人名和术语、以 where/what 等疑问词开头的问题、主动搜索照常）；0 = 关闭', 'An English message whose information is one word alone needs a word rarer than everyday speech ("same error" and "try harder" recall nothing; names and terms of art, questions opening with where or what, and searches still do); 0 = off'] },
      { path: 'recall.minQueryInformation', kind: 'number', min: 0, max: 100, step: 0.5, label: ['查询信息量下限', 'Min query information'], help: ['查询词的通用语料 IDF 之和低于此值时一条都不注入（挡住「看看效果」这类闲聊）；0 = 关闭', 'Inject nothing when the query words carry less general-language IDF than this (stops chatter like "看看效果"); 0 = off'] },
      { path: 'recall.english.minStatementCosine', kind: 'number', min: 0, max: 1, step: 0.01, label: ['英文陈述的语义相似度下限', 'Min meaning match, English statements'], help: ['英文消息不是提问（没有问号，也不以疑问词、助动词开头）时，关键词找到的笔记还要语义模型认为说的是这件事（the dog needs a walk 不召回只是顺带提到狗和散步的会议记录）；需要语义模型，主动搜索照常；0 = 关闭', 'An English message that does not ask (no question mark, no question word or auxiliary verb first) keeps a note the words found only when the model also finds the note about it ("the dog needs a walk" does not recall minutes that mention a dog show and a walk); needs the model; searches as before; 0 = off'] },
      { path: 'recall.minLoneWordInformation', kind: 'number', min: 0, max: 100, step: 0.5, label: ['单个词消息的信息量下限', 'Min information, one-word messages'], help: ['中文消息只有一个有信息的词时，这个词要比日常用语少见（明天要开会、下班了 不召回；人名和术语、带疑问词或问号的问题、主动搜索照常）；0 = 关闭', 'A Chinese message whose information is one word alone needs a word rarer than everyday speech (明天要开会 and 下班了 recall nothing; names and terms of art, questions with a question word or mark, and searches still do); 0 = off'] },
      { path: 'recall.timeChannel', kind: 'bool', label: ['时间通道', 'Time channel'], help: ['查询里有「昨天」「九天前」「10月6日」「上周三」这类日期时，直接取那几天的日记（按发生时间排序，其余词在当天内排序）', 'A query naming days (昨天, 九天前, 10月6日, 上周三) gets those days\' diary entries, in the order they happened; the other words rank within the day'] },
      { path: 'recall.minSemantic', kind: 'number', min: 0, max: 1, step: 0.01, label: ['向量分下限', 'Min semantic score'] },
      { path: 'recall.requireSemantic', kind: 'bool', label: ['要求向量通道命中', 'Require a semantic match'], help: ['向量通道不可用时自动跳过', 'Skipped automatically when the semantic channel is down'] },
      { path: 'recall.hybridGate.enabled', kind: 'bool', label: ['混合闸门', 'Hybrid gate'], help: ['向量通道运行时，用一个拟合的逻辑回归综合两路证据决定注入与否', 'When the semantic channel ran, one fitted logistic decision over both channels decides what is injected'] },
      { path: 'recall.hybridGate.threshold', kind: 'number', min: 0, max: 1.01, step: 0.01, label: ['混合闸门阈值', 'Hybrid gate threshold'], help: ['只靠向量找到的候选，概率须高于此值', 'Candidates found only by the embedding need a probability above this'], showIf: (g) => g('recall.hybridGate.enabled') === true },
      { path: 'recall.hybridGate.veto', kind: 'number', min: 0, max: 1.01, step: 0.01, label: ['混合闸门否决线', 'Hybrid gate veto'], help: ['词法规则放行的候选，概率低于此值时仍被去掉', 'Candidates the lexical rules keep are still removed below this probability'], showIf: (g) => g('recall.hybridGate.enabled') === true },
      { path: 'recall.hybridGate.queryGate', kind: 'select', options: ['auto', 'on', 'off'], label: ['整句闸门', 'Query gate'], help: ['整句判断记忆里有没有答案；auto = 语义检索只在拟合它的模型（bge-small-zh）上启用，只按关键词检索时用关键词版；off = 都不用', 'Judges whether the memories answer the question at all; auto = with the model it was fitted on (bge-small-zh), and its words-only version when only the words search; off = neither'] },
      { path: 'recall.hybridGate.weights', kind: 'readonly', label: ['混合闸门权重', 'Hybrid gate weights'], help: ['空 = 拟合的默认值（packages/engine/bench/fit-gate.ts）；用配置文件改', 'Empty = the fitted defaults (packages/engine/bench/fit-gate.ts); change it in the config file'] },
      { path: 'judge.enabled', kind: 'bool', label: ['启用 LLM 裁判', 'LLM judge'] },
      { path: 'judge.baseUrl', kind: 'text', label: ['裁判 Base URL', 'Judge base URL'], showIf: judgeOn },
      { path: 'judge.model', kind: 'text', label: ['裁判模型', 'Judge model'], showIf: judgeOn },
      { path: 'judge.apiKey', kind: 'secret', label: ['裁判 API Key', 'Judge API key'], showIf: judgeOn },
      { path: 'judge.threshold', kind: 'number', min: 0, max: 1, step: 0.05, label: ['裁判阈值', 'Judge threshold'], showIf: judgeOn },
      { path: 'judge.concurrency', kind: 'number', min: 1, max: 32, label: ['裁判并发', 'Judge concurrency'], showIf: judgeOn },
      { path: 'judge.timeoutMs', kind: 'number', min: 100, max: 120000, label: ['裁判超时（ms）', 'Judge timeout (ms)'], showIf: judgeOn },
    ],
  },
  {
    id: 'freeze',
    letter: 'C',
    title: ['冻结行为', 'Freeze behaviour'],
    description: ['召回结果在什么时候重新计算；其余时间保持冻结，以免打穿前缀缓存。', 'When recall is recomputed; in between it stays frozen so the prompt cache holds.'],
    fields: [
      { path: 'freeze.onUserMessage', kind: 'bool', label: ['用户发消息时刷新', 'Refresh on user message'] },
      { path: 'freeze.onTodoCheck', kind: 'bool', label: ['待办勾选时刷新', 'Refresh on todo check'] },
    ],
  },
  {
    id: 'runtime',
    letter: 'D',
    title: ['常驻记忆', 'Resident memories'],
    description: ['每轮都注入的长期事实与偏好。', 'Long-term facts and preferences injected on every turn.'],
    fields: [
      { path: 'runtime.inject', kind: 'bool', label: ['注入常驻记忆', 'Inject resident memories'] },
      { path: 'runtime.mode', kind: 'select', options: ['section', 'message'], label: ['注入位置', 'Injection place'], help: ['section = 系统提示词；message = 对话消息', 'section = system prompt; message = a conversation message'] },
      { path: 'runtime.maxMessages', kind: 'number', min: 0, max: 200, label: ['最多保留几条', 'Max messages kept'], help: ['0 = 不限制', '0 = no limit'], showIf: messageMode('runtime.mode') },
      { path: 'runtime.order', kind: 'number', min: -10000, max: 10000, restart: true, label: ['排序', 'Order'] },
      { path: 'runtime.toolGuidance', kind: 'bool', label: ['附带工具使用说明', 'Include tool guidance'] },
      { path: 'runtime.memories', kind: 'memories', label: ['常驻记忆条目', 'Resident memory items'] },
    ],
  },
  {
    id: 'aliases',
    letter: 'E',
    title: ['同义词别名', 'Aliases'],
    description: ['一组可互换的词：查询命中其中一个，就按整组检索。', 'Groups of interchangeable terms: a query hitting one searches the whole group.'],
    fields: [{ path: 'aliases', kind: 'aliases', label: ['别名组', 'Alias groups'] }],
  },
  {
    id: 'storage',
    letter: 'F',
    title: ['日记存放', 'Diary storage'],
    fields: [
      { path: 'diaryDir', kind: 'text', label: ['日记根目录', 'Diary folder'], help: ['子目录即分类', 'Sub-folders are categories'] },
      { path: 'legacyDir', kind: 'text', label: ['旧语料目录（只读）', 'Legacy corpus folder (read-only)'], help: ['留空 = 不用', 'Empty = none'] },
      { path: 'diary.folder', kind: 'text', label: ['默认分类', 'Default category'] },
      { path: 'diary.format', kind: 'select', options: ['txt', 'md'], label: ['写入格式', 'File format'] },
      { path: 'diary.archiveFolder', kind: 'text', label: ['归档目录名', 'Archive folder name'] },
      { path: 'diary.requireTag', kind: 'bool', label: ['校验 Tag 行', 'Check the Tag line'] },
      { path: 'diary.timePrefix', kind: 'bool', label: ['校验 [HH:MM] 时间锚', 'Check the [HH:MM] anchor'] },
      { path: 'diary.runtimeFile', kind: 'text', label: ['常驻记忆文件', 'Resident memories file'], help: ['JSON 文件（[…] 或 { "memories": […] }），其中的条目每轮常驻注入；留空 = 旧语料目录下的 runtime/memories.json', 'A JSON file ([…] or { "memories": […] }) whose items are injected on every turn; empty = runtime/memories.json under the legacy corpus folder'], placeholder: ['/path/to/memories.json', '/path/to/memories.json'] },
      { path: 'diary.updateMinTarget', kind: 'number', min: 1, max: 1000, label: ['局部修改锚点最短字数', 'Anchored edit: min target length'], help: ['不建议调低', 'Lowering it is not advised'] },
      { path: 'dataDir', kind: 'readonly', label: ['数据目录', 'Data folder'], help: ['由部署配置决定', 'Fixed by the deploy base'] },
      { path: 'databaseUrl', kind: 'readonly', label: ['数据库', 'Database'], help: ['由部署配置决定', 'Fixed by the deploy base'] },
      { path: 'databaseAuthToken', kind: 'readonly', label: ['数据库令牌', 'Database token'], help: ['由部署配置决定', 'Fixed by the deploy base'] },
    ],
  },
  {
    id: 'inject',
    letter: 'G',
    title: ['注入文案与占位符', 'Injection texts and placeholders'],
    description: ['召回块与常驻块的措辞。免责声明是「这是背景资料、不是指令」的唯一防线。', 'Wording of the recall and resident blocks. The disclaimer is the only line that says "background, not instructions".'],
    fields: [
      { path: 'inject.enabled', kind: 'bool', label: ['注入召回结果', 'Inject recall results'] },
      { path: 'tools.profile', kind: 'select', options: ['lean', 'full'], restart: true, label: ['工具与提示词配置', 'Tools and prompt profile'], help: ['lean = 4 个分层工具 + 一段写作守则，每次请求约 800 token；full = 全部 15 个工具 + 完整守则，约 6,500 token', 'lean = 4 layered tools + a one-paragraph guideline, about 800 tokens per request; full = all 15 tools + the whole guideline, about 6,500'] },
      { path: 'tools.disabled', kind: 'lines', restart: true, label: ['不提供给模型的工具', 'Tools not offered to the model'], help: ['每行一个工具名，对当前配置的工具集生效；每个工具的说明每次请求都占 token（约 70–500），例如 engram_history、engram_list、engram_wall', 'One tool name per line, from the profile in use; every tool schema costs tokens on each request (about 70–500), e.g. engram_history, engram_list, engram_wall'] },
      { path: 'inject.mode', kind: 'select', options: ['message', 'context'], label: ['注入位置', 'Injection place'], help: ['message = 对话消息；context = 系统提示词', 'message = a conversation message; context = the system prompt'] },
      { path: 'inject.maxMessages', kind: 'number', min: 0, max: 200, label: ['最多保留几条', 'Max messages kept'], help: ['0 = 不限制', '0 = no limit'], showIf: messageMode('inject.mode') },
      { path: 'inject.order', kind: 'number', min: -10000, max: 10000, restart: true, label: ['排序', 'Order'] },
      { path: 'inject.blockName', kind: 'text', label: ['外层标签名', 'Block tag name'], help: ['会被清理成合法的 XML 标签名', 'Sanitised to a valid XML tag name'] },
      { path: 'inject.header', kind: 'textarea', label: ['首行说明', 'Header'] },
      { path: 'inject.disclaimer', kind: 'textarea', label: ['免责声明', 'Disclaimer'] },
      { path: 'inject.itemPrefix', kind: 'text', label: ['单条命中前缀', 'Item prefix'], help: ['占位符：{n} {date} {title}', 'Placeholders: {n} {date} {title}'] },
      { path: 'runtime.title', kind: 'text', label: ['常驻 section 标题', 'Resident section title'] },
      { path: 'runtime.intro', kind: 'textarea', label: ['常驻 section 引导语', 'Resident section intro'] },
      { path: 'runtime.criticalTitle', kind: 'text', label: ['「必须遵守」小标题', '"Must obey" heading'] },
      { path: 'runtime.normalTitle', kind: 'text', label: ['「一般事实」小标题', '"General facts" heading'] },
    ],
  },
  {
    id: 'template',
    letter: 'H',
    title: ['日记写作规范', 'Diary-writing guideline'],
    description: ['注入给模型的写作规范提示词。留空 = 使用内置模板；保存后下一次请求即生效。', 'The guideline prompt given to the model. Empty = the built-in template; a change applies from the next request.'],
    fields: [
      { path: 'diary.templateEnabled', kind: 'bool', label: ['注入写作规范', 'Inject the guideline'] },
      { path: 'diary.templateText', kind: 'template', label: ['规范正文', 'Guideline text'] },
    ],
  },
  {
    id: 'preview',
    letter: 'I',
    title: ['语义写入预览', 'Semantic-write preview'],
    description: ['贴一段模型回复，看系统会从中写入什么（只解析，不落盘）。', 'Paste a model reply and see what would be written (parses only, writes nothing).'],
    tool: 'note-preview',
    fields: [],
  },
  {
    id: 'compaction',
    letter: 'K',
    title: ['跨压缩记忆', 'Cross-compaction memory'],
    description: ['会话被上下文压缩时，把被压掉的摘要与对话存到本机；压缩后注入一份总览，提问时本地检索命中才注入参考（≤ 700 token/轮）。',
      'When a session is compacted, what was folded away is stored locally; after a compaction an overview is shown once, and on each question stored history is injected only when it scores above the threshold (≤ 700 tokens a turn).',
    ],
    fields: [
      { path: 'compaction.enabled', kind: 'bool', label: ['总开关', 'Enabled'], help: ['关掉 = 不入库、不注入', 'Off = nothing stored, nothing injected'] },
      { path: 'compaction.ingestSummary', kind: 'bool', label: ['入库：压缩摘要（L1）', 'Store: summary sections (L1)'], showIf: compactionOn },
      { path: 'compaction.ingestDialogue', kind: 'bool', label: ['入库：对话原文（L2）', 'Store: dialogue (L2)'], showIf: compactionOn },
      { path: 'compaction.ingestToolResults', kind: 'bool', label: ['入库：读类工具结果', 'Store: read-type tool results'], showIf: compactionOn },
      { path: 'compaction.readTools', kind: 'lines', label: ['读类工具名', 'Read-type tools'], help: ['每行一个工具名', 'One tool name per line'], showIf: compactionOn },
      { path: 'compaction.maxBlockChars', kind: 'number', min: 200, max: 20000, step: 100, label: ['单块字数上限', 'Max characters per block'], help: ['更长的会切成多块，不丢内容', 'Longer text is split into several blocks, none of it dropped'], showIf: compactionOn },
      { path: 'compaction.maxToolResultChars', kind: 'number', min: 0, max: 1000000, step: 1000, label: ['单个工具结果字数上限', 'Max characters per tool result'], help: ['0 = 全部；截断会记录在块上', '0 = all; a cut is recorded on the block'], showIf: compactionOn },
      { path: 'compaction.overview', kind: 'bool', label: ['压缩后注入总览', 'Overview after a compaction'], showIf: compactionOn },
      { path: 'compaction.overviewMaxTokens', kind: 'number', min: 0, max: 4000, step: 10, label: ['总览 token 上限', 'Overview max tokens'], showIf: compactionOn },
      { path: 'compaction.inject', kind: 'bool', label: ['提问时注入参考', 'Inject on each question'], showIf: compactionOn },
      { path: 'compaction.minScore', kind: 'number', min: 0, max: 1, step: 0.01, label: ['命中阈值', 'Hit threshold'], help: ['调低 = 更容易命中，也更可能注入不太相关的内容', 'Lower = more hits, and more loosely related ones'], showIf: compactionOn },
      { path: 'compaction.maxItems', kind: 'number', min: 1, max: 10, label: ['每轮最多几条', 'Items per turn'], showIf: compactionOn },
      { path: 'compaction.maxItemChars', kind: 'number', min: 50, max: 5000, step: 10, label: ['每条字数上限', 'Max characters per item'], showIf: compactionOn },
      { path: 'compaction.minItemChars', kind: 'number', min: 0, max: 1000, label: ['每条字数下限', 'Min characters per item'], showIf: compactionOn },
      { path: 'compaction.maxTokens', kind: 'number', min: 50, max: 20000, step: 10, label: ['每轮 token 上限', 'Max tokens per turn'], help: ['超出时先去掉后面的整条', 'Over it, whole items are dropped from the end'], showIf: compactionOn },
      { path: 'compaction.header', kind: 'textarea', label: ['注入块抬头', 'Header of the injected block'], showIf: compactionOn },
      { path: 'compaction.duplicateSimilarity', kind: 'number', min: 0, max: 1, step: 0.05, label: ['去重相似度', 'Duplicate similarity'], showIf: compactionOn },
      { path: 'compaction.cooldownSimilarity', kind: 'number', min: 0, max: 1, step: 0.05, label: ['同话题冷却相似度', 'Same-topic cool-down similarity'], showIf: compactionOn },
      { path: 'compaction.fieldWeights.title', kind: 'number', min: 0, max: 20, step: 0.5, label: ['字段权重：标题', 'Field weight: title'], showIf: compactionOn },
      { path: 'compaction.fieldWeights.keywords', kind: 'number', min: 0, max: 20, step: 0.5, label: ['字段权重：关键词', 'Field weight: keywords'], showIf: compactionOn },
      { path: 'compaction.fieldWeights.body', kind: 'number', min: 0, max: 20, step: 0.5, label: ['字段权重：正文', 'Field weight: body'], showIf: compactionOn },
      { path: 'compaction.rules.enabled', kind: 'bool', label: ['从摘要归纳次要规则', 'Minor rules from summaries'], showIf: compactionOn },
      { path: 'compaction.rules.inject', kind: 'bool', label: ['注入次要规则', 'Inject the minor rules'], showIf: compactionOn },
      { path: 'compaction.rules.injectMaxTokens', kind: 'number', min: 0, max: 4000, step: 10, label: ['次要规则 token 上限', 'Minor rules max tokens'], showIf: compactionOn },
      { path: 'compaction.rules.maxRules', kind: 'number', min: 1, max: 500, label: ['次要规则条数上限', 'Max minor rules'], showIf: compactionOn },
      { path: 'compaction.rules.archiveMaxBytes', kind: 'number', min: 1024, max: 50000000, step: 1024, label: ['压缩存档字节上限', 'Archive byte budget'], showIf: compactionOn },
      { path: 'compaction.trash', kind: 'bool', label: ['删除先进回收站', 'Deletes go to the trash'], showIf: compactionOn },
      { path: 'compaction.trashDays', kind: 'number', min: 0, max: 3650, label: ['回收站保留天数', 'Days kept in the trash'], help: ['超过这么多天的已删除压缩块连同文件彻底清除，每次记入审计；0 = 一直保留到手动清空', 'Deleted compaction blocks older than this are purged for good with their files, each purge audited; 0 = kept until emptied by hand'], showIf: compactionOn },
      { path: 'compaction.historyReadMaxChars', kind: 'number', min: 500, max: 200000, step: 500, label: ['history_read 字数上限', 'history_read max characters'], showIf: compactionOn },
      { path: 'compaction.assist.mode', kind: 'select', options: ['off', 'main', 'model'], label: ['模型辅助', 'Model assistance'], help: ['off = 不调用大模型（默认）；main = 会话主模型；model = 下面指定的模型', 'off = no model calls (default); main = the session’s model; model = the one below'], showIf: compactionOn },
      { path: 'compaction.assist.provider', kind: 'text', label: ['辅助模型提供方', 'Assist provider'], showIf: assistModel },
      { path: 'compaction.assist.model', kind: 'text', label: ['辅助模型', 'Assist model'], showIf: assistModel },
      { path: 'compaction.assist.ingestKeywords', kind: 'bool', label: ['入库时补关键词', 'Keywords at ingest'], showIf: assistOn },
      { path: 'compaction.assist.ingestTimeoutMs', kind: 'number', min: 500, max: 120000, step: 500, label: ['入库调用超时（ms）', 'Ingest timeout (ms)'], showIf: assistOn },
      { path: 'compaction.assist.searchTimeoutMs', kind: 'number', min: 500, max: 120000, step: 500, label: ['检索调用超时（ms）', 'Search timeout (ms)'], showIf: assistOn },
      { path: 'compaction.assist.dailyCap', kind: 'number', min: 0, max: 100000, label: ['每日调用上限', 'Daily call cap'], help: ['0 = 不限', '0 = unlimited'], showIf: assistOn },
      { path: 'compaction.assist.cacheDays', kind: 'number', min: 0, max: 365, label: ['改写缓存天数', 'Rewrite cache (days)'], showIf: assistOn },
    ],
  },
  {
    id: 'workspace',
    letter: 'L',
    title: ['工作区与跨会话', 'Workspaces and sessions'],
    description: ['每条记忆属于一个工作区（会话的 cwd）或 global；召回默认只看当前工作区和 global。',
      'Every memory belongs to a workspace (the session’s cwd) or to global; recall sees the current workspace and global by default.',
    ],
    fields: [
      { path: 'workspace.scoped', kind: 'bool', label: ['按工作区隔离', 'Scope by workspace'], help: ['关掉 = 所有工作区的记忆互相可见', 'Off = every workspace sees every memory'] },
      { path: 'workspace.inject', kind: 'select', options: ['hint', 'index', 'full', 'off'], label: ['本层注入方式', 'Injection of this layer'], help: ['hint = 一行提示（默认）；index = 置顶 + 最近要点；full = 全部要点；off = 不注入', 'hint = one line (default); index = pinned + recent summaries; full = every summary; off = nothing'] },
      { path: 'workspace.mirror', kind: 'bool', label: ['Memory.md 镜像', 'Memory.md mirror'], help: ['在每个工作区文件夹里生成一份 Memory.md，列出这个工作区的记忆，写入后自动更新；你自己写的 Memory.md（没有生成标记）不会被覆盖', 'Keeps a generated Memory.md in each workspace folder listing its memories, updated after writes; a Memory.md you wrote yourself (no generated marker) is never overwritten'] },
      { path: 'workspace.injectMaxItems', kind: 'number', min: 1, max: 500, label: ['索引/全量最多几条', 'Items in index/full at most'] },
      { path: 'workspace.autoClaim', kind: 'bool', label: ['改名后自动认领', 'Claim renamed workspaces automatically'], help: ['只在旧路径已不存在且只有一个候选匹配时', 'Only when the old path is gone and exactly one candidate matches'] },
      { path: 'sessions.dshHome', kind: 'text', label: ['DSH 目录', 'DSH home'], placeholder: ['留空 = $DSH_HOME 或 ~/.dsh', 'Empty = $DSH_HOME or ~/.dsh'] },
      { path: 'sessions.readMaxChars', kind: 'number', min: 500, max: 200000, step: 500, label: ['session_read 字数上限', 'session_read max characters'] },
      { path: 'crossSession.brief', kind: 'bool', label: ['brief：其他会话的新记忆', 'brief: what other sessions wrote'] },
      { path: 'crossSession.briefLookbackHours', kind: 'number', min: 1, max: 8760, label: ['首次 brief 回看小时数', 'First brief looks back (hours)'] },
      { path: 'crossSession.wall', kind: 'bool', label: ['会话留言墙', 'Wall between sessions'] },
      { path: 'crossSession.notebook', kind: 'bool', label: ['私密本', 'Private notebooks'] },
      { path: 'crossSession.notebookInjectMaxChars', kind: 'number', min: 0, max: 50000, step: 100, label: ['每本规则注入字数上限', 'Max characters per injected rule book'] },
      { path: 'summaries.enabled', kind: 'bool', label: ['自动要点', 'Automatic summaries'], help: ['没写要点的记忆由宿主模型在后台补一句；失败用规则摘要', 'Memories without a summary get one from the host model in the background; rule-based on failure'] },
      { path: 'summaries.provider', kind: 'text', label: ['要点模型提供方', 'Summary provider'], placeholder: ['留空 = 会话的模型', 'Empty = the session’s model'] },
      { path: 'summaries.model', kind: 'text', label: ['要点模型', 'Summary model'] },
      { path: 'summaries.timeoutMs', kind: 'number', min: 500, max: 300000, step: 500, label: ['要点超时（ms）', 'Summary timeout (ms)'] },
      { path: 'summaries.maxChars', kind: 'number', min: 20, max: 1000, label: ['要点字数上限', 'Summary max characters'] },
      { path: 'hygiene.enabled', kind: 'bool', label: ['写入检查', 'Write checks'], help: ['拒收碎片、合并近似重复、提示可能冲突', 'Refuse fragments, merge near-duplicates, warn on probable conflicts'] },
      { path: 'hygiene.minChars', kind: 'number', min: 0, max: 1000, label: ['正文最少字数', 'Minimum body characters'] },
      { path: 'hygiene.duplicateOverlap', kind: 'number', min: 0, max: 1, step: 0.01, label: ['近似重复阈值', 'Near-duplicate overlap'] },
      { path: 'hygiene.conflictWarning', kind: 'bool', label: ['冲突提示', 'Conflict warnings'] },
    ],
  },
  {
    id: 'console',
    letter: 'J',
    title: ['控制台与安全', 'Console and security'],
    fields: [
      { path: 'console.host', kind: 'readonly', label: ['监听地址', 'Listen host'], help: ['由 HOST 环境变量或配置文件决定；默认只监听 127.0.0.1', 'Set by HOST or the config file; loopback only by default'] },
      { path: 'console.port', kind: 'readonly', label: ['端口', 'Port'], help: ['由 PORT 环境变量或配置文件决定', 'Set by PORT or the config file'] },
      { path: 'console.allowedOrigins', kind: 'lines', label: ['允许嵌入与写入的来源', 'Origins allowed to frame and write'], help: ['每行一个，例如 http://127.0.0.1:7860', 'One per line, e.g. http://127.0.0.1:7860'] },
      { path: 'console.allowedHosts', kind: 'lines', label: ['允许访问的主机名', 'Host names answered'], help: ['除 127.0.0.1、localhost、[：：1] 外控制台还接受的 Host 名（每行一个，不带端口）；其余一律拒绝，以防 DNS 重绑定', 'Host names besides 127.0.0.1, localhost and [::1] the console answers to (one per line, no port); all others are refused against DNS rebinding'] },
      { path: 'console.trustedProxy', kind: 'bool', label: ['信任反向代理头', 'Trust proxy headers'], help: ['仅当控制台前面有会覆盖 X-Forwarded-Host/Proto 的反向代理时打开', 'Only when a reverse proxy in front overwrites X-Forwarded-Host/Proto'] },
    ],
  },
];

export const ALL_FIELDS: FieldSpec[] = SECTIONS.flatMap((s) => s.fields);
