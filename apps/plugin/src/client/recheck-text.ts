// The words of the look-again line (↻ 再查): what the search found, and — when the local search was
// strong enough that the assistant model's query rewrite was skipped — that it was (the seed promises
// the person is told; it saves a call and changes nothing found). Chinese unless the host page is in
// English (readAppearance), like the console the pane frames.
import type { Lang } from './appearance.ts';

export interface RecheckOutcome {
  found: boolean;
  blocks: readonly { title: string }[];
  /** Absent from an older host's answer: then nothing is said about the rewrite. */
  skippedRewrite?: boolean;
}

const TEXT = {
  zh: {
    found: (n: number) => `已搜索已压缩的历史:找到 ${n} 段相关内容,资料已备好 —— 直接继续提问即可`,
    none: '已搜索已压缩的历史:未搜索到强相关内容',
    skipped: '这次本地已经直接找到内容,跳过了辅助模型的查询改写(省一次调用)',
  },
  en: {
    found: (n: number) => `Searched the compacted history: found ${n} related passage${n === 1 ? '' : 's'}, ready — just keep asking`,
    none: 'Searched the compacted history: nothing strongly related',
    skipped: 'The local search found it directly this time, so the assistant model’s query rewrite was skipped (one call saved)',
  },
} as const;

/** The note, and the skipped-rewrite line (null when the rewrite ran, or there was none to skip). */
export function recheckText(result: RecheckOutcome, lang: Lang | undefined): { note: string; skipped: string | null } {
  const t = TEXT[lang === 'en' ? 'en' : 'zh'];
  return {
    note: result.found ? t.found(result.blocks.length) : t.none,
    skipped: result.found && result.skippedRewrite === true ? t.skipped : null,
  };
}
