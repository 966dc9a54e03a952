// Stop words are dropped at tokenization time, not left to the IDF gate: IDF measures rarity, not
// meaning. A filler like 一下 is rare in written notes (high IDF) yet says nothing about the topic,
// so a chatty query ("修了,再简单测一下") would otherwise pass the "distinctive term" gate.

const CHINESE_FUNCTION_WORDS = [
  // pronouns
  '我', '你', '您', '他', '她', '它', '我们', '你们', '他们', '她们', '它们', '咱', '咱们', '自己',
  '大家', '人家', '别人', '某', '某个', '某些',
  // demonstratives and question words
  '这', '那', '哪', '这个', '那个', '哪个', '这些', '那些', '哪些', '这里', '那里', '哪里', '这儿',
  '那儿', '哪儿', '这边', '那边', '这样', '那样', '这么', '那么', '这种', '那种', '这条', '那条',
  '这次', '那次', '这回', '这下', '这段', '那段', '这句', '那句', '这篇', '那篇', '这份', '这位',
  '这件', '那件', '此', '其', '其中', '什么', '啥', '怎么', '怎样', '怎么样',
  '为什么', '为啥', '如何', '多少', '几',
  // particles and interjections
  '的', '地', '得', '了', '着', '过', '吗', '呢', '吧', '啊', '呀', '哦', '噢', '嗯', '嗯嗯', '哈',
  '哈哈', '啦', '嘛', '么', '呗', '哎', '诶', '欸', '喔', '哇', '咯', '嘞', '罢了', '而已', '之',
  '等', '等等',
  // copulas, auxiliaries, modal and degree adverbs
  '是', '在', '有', '没', '没有', '不', '不是', '别', '就', '才', '都', '也', '还', '又', '再', '很',
  '太', '更', '最', '挺', '蛮', '比较', '非常', '特别', '已经', '曾经', '正在', '将', '会', '能',
  '能够', '可以', '可能', '应该', '应当', '需要', '要', '想', '必须', '得要', '不要', '不用', '不能',
  '不会', '别再', '还是', '还有', '只', '只是', '就是', '其实', '确实', '真的', '一直', '总是',
  '马上', '立刻', '先', '稍微', '随便', '大概', '好像', '似乎', '应该是',
  // conjunctions and prepositions
  '和', '与', '及', '以及', '或', '或者', '但', '但是', '可是', '不过', '然而', '而', '而且', '并',
  '并且', '所以', '因为', '因此', '如果', '要是', '虽然', '然后', '接着', '于是', '只要', '只有',
  '即使', '把', '被', '给', '让', '对', '对于', '从', '向', '往', '跟', '同', '为', '为了', '按',
  '按照', '关于', '由', '于', '以', '用', '到', '里', '上', '中',
  // numerals and measure words that only count things
  '一', '一个', '一些', '一点', '一点点', '一下', '一下子', '有点', '有些', '个', '些', '条', '次',
  '下', '种', '点', '遍',
  // conversational fillers seen in real chat queries
  '好', '好的', '好吧', '好了', '行', '行吧', '可以了', '对的', '是的', '没错', '嗯好', '看看',
  '看一下', '看下', '看见', '看到', '试试', '试一下', '测', '测测', '修', '修修', '继续', '简单',
  '现在', '刚才', '刚刚', '今天', '昨天', '明天', '觉得', '感觉', '知道', '请', '帮', '帮我',
  '麻烦', '谢谢', '一起', '东西', '事情', '一样', '这样子', '那样子', '明白', '收到', '没问题',
  '你看', '我看', '好了吗', '检查一下', '试一次', '再试一次', '怎么弄', '怎么办', '别的', '下一步',
  '修好', '修一下', '改改', '改好', '改一下', '测一下', '跑一下',
  // reactions and status words a user types between steps
  '别动', '写得', '不错', '辛苦', '辛苦了', '回来', '回来了', '不行', '不对', '没反应', '意思', '稍等',
  '等一下', '搞定', '搞定了', '快点', '快一点', '一点儿', '重来', '随便吧', '然后呢',
];

const ENGLISH_FUNCTION_WORDS = [
  'a', 'an', 'the', 'and', 'or', 'but', 'is', 'are', 'was', 'were', 'be', 'been', 'am', 'to', 'of',
  'in', 'on', 'at', 'for', 'with', 'by', 'from', 'as', 'it', 'its', 'this', 'that', 'these',
  'those', 'i', 'me', 'my', 'you', 'your', 'he', 'she', 'we', 'our', 'they', 'them', 'do', 'does',
  'did', 'not', 'no', 'yes', 'ok', 'okay', 'please', 'just', 'so', 'then', 'there', 'here', 'what',
  'how', 'why', 'can', 'could', 'should', 'would', 'will', 'if', 'let', 'lets',
  'thanks', 'thank', 'thx', 'go', 'lgtm', 'sure', 'fine', 'great', 'nice', 'cool', 'again', 'continue',
];

// The English list of the `stopword` package (3.1.5, MIT), copied here because requiring the package
// builds its 62 languages' lists (~35 ms of every CLI command); test/text/stopwords-english.test.ts
// checks the copy against the package. Beside it, the forms the tokenizer makes of contractions
// (don't → dont, I'm → im, we'd → wed; not I'd: id is a word) and the pronouns, auxiliaries and
// question words it lacks. Content words stay, however common ("people", "time"): how little they
// say is the English rarity table's job (recall/background-idf.ts), not a yes/no list's.
export const STOPWORD_PACKAGE_ENGLISH = [
  'about', 'after', 'all', 'also', 'am', 'an', 'and', 'another', 'any', 'are', 'as', 'at', 'be', 'because',
  'been', 'before', 'being', 'between', 'both', 'but', 'by', 'came', 'can', 'come', 'could', 'did', 'do',
  'each', 'for', 'from', 'get', 'got', 'has', 'had', 'he', 'have', 'her', 'here', 'him', 'himself', 'his',
  'how', 'if', 'in', 'into', 'is', 'it', 'like', 'make', 'many', 'me', 'might', 'more', 'most', 'much',
  'must', 'my', 'never', 'now', 'of', 'on', 'only', 'or', 'other', 'our', 'out', 'over', 'said', 'same',
  'should', 'since', 'some', 'still', 'such', 'take', 'than', 'that', 'the', 'their', 'them', 'then',
  'there', 'these', 'they', 'this', 'those', 'through', 'to', 'too', 'under', 'up', 'very', 'was', 'way',
  'we', 'well', 'were', 'what', 'where', 'which', 'while', 'who', 'with', 'would', 'you', 'your', 'a', 'i',
];

const ENGLISH_CONTRACTIONS = [
  'dont', 'doesnt', 'didnt', 'isnt', 'arent', 'wasnt', 'werent', 'hasnt', 'havent', 'hadnt', 'wont',
  'wouldnt', 'cant', 'couldnt', 'shouldnt', 'mustnt', 'im', 'ive', 'ill', 'youre', 'youve', 'youd',
  'youll', 'hes', 'shes', 'were', 'weve', 'wed', 'well', 'theyre', 'theyve', 'theyd', 'theyll', 'thats',
  'whats', 'whos', 'wheres', 'hows', 'theres', 'heres', 'lets', 'aint', 'yall',
];
const ENGLISH_MORE_FUNCTION_WORDS = [
  'she', 'hers', 'us', 'ours', 'yours', 'theirs', 'mine', 'myself', 'yourself', 'herself', 'itself',
  'ourselves', 'themselves', 'when', 'whom', 'whose', 'whether', 'shall', 'may', 'doing', 'done', 'having',
  'nor', 'off', 'once', 'onto', 'upon', 'per', 'via', 'yet', 'though', 'although', 'unless', 'until',
  'against', 'during', 'without', 'within', 'among', 'few', 'own', 'ever', 'every', 'either', 'neither',
  'anyone', 'anything', 'someone', 'something', 'everyone', 'everything', 'nobody', 'nothing',
  'somebody', 'anybody', 'everybody', 'oh', 'hmm', 'um', 'uh', 'yeah', 'yep', 'nope', 'hey', 'hi', 'hello',
  'really', 'actually', 'maybe', 'perhaps', 'quite', 'rather', 'else', 'etc',
];

// What the Chinese list's conversational fillers (好的, 看看, 试试, 知道, 谢谢, 一下) are in English: the
// words a user types between steps, which on their own name no topic. Checked on the surface form and
// on the stem (text/latin.ts), so "looks", "looking" and "looked" go with "look".
const ENGLISH_CHAT_WORDS = [
  'good', 'fine', 'great', 'nice', 'cool', 'perfect', 'awesome', 'alright', 'right', 'sure', 'yup',
  'thanks', 'thank', 'please', 'sorry', 'morning', 'night', 'bye', 'know', 'think', 'guess', 'mean',
  'meant', 'see', 'look', 'seem', 'sound', 'wait', 'hold', 'check', 'try', 'next', 'keep', 'get', 'got',
  'lot', 'bit', 'little', 'thing', 'stuff', 'now', 'today', 'later', 'soon', 'already', 'anyway', 'ok',
  'tell', 'say', 'said', 'want', 'need', 'like', 'make', 'use', 'one', 'way', 'back', 'go', 'come',
];

// What a user shouts between steps (OK, THANKS, LGTM): in capitals these stay stop words. Any other
// stop word written in capitals is an acronym that names something (AM, IT, US, WHO, an HTTP GET) and
// is a term (text/latin.ts).
const FILLERS_IN_CAPITALS: ReadonlySet<string> = new Set([
  'ok', 'okay', 'yes', 'no', 'yeah', 'yep', 'yup', 'nope', 'thanks', 'thank', 'thx', 'please', 'pls',
  'plz', 'lgtm', 'sorry', 'hi', 'hello', 'hey', 'bye', 'oh', 'hmm', 'um', 'uh', 'good', 'great', 'nice',
  'cool', 'fine', 'perfect', 'awesome', 'alright', 'sure', 'wow', 'lol',
]);

/** True for a (lower-cased) stop word that stays one when written in capitals: a filler, not an acronym. */
export const isFillerInCapitals = (lower: string): boolean => FILLERS_IN_CAPITALS.has(lower);

const STOP_WORDS: ReadonlySet<string> = new Set([
  ...CHINESE_FUNCTION_WORDS,
  ...ENGLISH_FUNCTION_WORDS,
  ...STOPWORD_PACKAGE_ENGLISH,
  ...ENGLISH_CONTRACTIONS,
  ...ENGLISH_MORE_FUNCTION_WORDS,
  ...ENGLISH_CHAT_WORDS,
]);

/**
 * The first code unit of every stop word. A build asks about every word of every note, each a new
 * string from jieba that a Set must hash before it can answer; most words start with a character no
 * stop word starts with, and are answered by their first code unit alone.
 */
const STOP_STARTS = new Uint8Array(0x10000);
for (const word of STOP_WORDS) if (word.length > 0) STOP_STARTS[word.charCodeAt(0)] = 1;

/** True for a (lower-cased) token that carries no topic on its own. */
export function isStopWord(token: string): boolean {
  if (token.length > 0 && STOP_STARTS[token.charCodeAt(0)] === 0) return false;
  return STOP_WORDS.has(token);
}

/** The whole list, for diagnostics and the console. */
export function stopWords(): readonly string[] {
  return [...STOP_WORDS];
}
