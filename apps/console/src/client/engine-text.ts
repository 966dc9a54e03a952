// The engine speaks English in its reasons and warnings (they also go to logs and to the model).
// The console shows them in the reader's language: known shapes are translated here, anything else
// is shown as it came (better an English sentence than a lost one).
import type { Lang } from './messages.ts';

type Rule = [RegExp, (m: RegExpMatchArray) => string];

const ZH_RULES: Rule[] = [
  [/^embedding provider changed: (.*) → (.*)$/, (m) => `Embedding 提供方变更:${m[1]} → ${m[2]}`],
  [/^embedding model changed: (.*) → (.*)$/, (m) => `Embedding 模型变更:${m[1]} → ${m[2]}`],
  [/^embedding endpoint changed: (.*) → (.*)$/, (m) => `Embedding 端点变更:${m[1]} → ${m[2]}`],
  [/^embedding dimensions changed: (.*) → (.*)$/, (m) => `Embedding 维度变更:${m[1]} → ${m[2]}`],
  [/^existing vectors cannot be compared with the new ones: rebuild the index to use the semantic channel again$/, () => '现有向量无法与新向量比较:重建索引后向量通道才能重新使用'],
  [/^stored vectors have (\d+) dimensions, the embedder produces (\d+)$/, (m) => `已存向量是 ${m[1]} 维,当前模型产生 ${m[2]} 维`],
];

export function engineText(text: string, lang: Lang): string {
  if (lang !== 'zh') return text;
  for (const [re, fn] of ZH_RULES) {
    const m = text.match(re);
    if (m) return fn(m).replace(/\(none\)/g, '(无)');
  }
  return text;
}
