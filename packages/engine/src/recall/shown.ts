// The already-shown rule, applied after the gates: hits whose memory the conversation already shows
// are not injected again, and leaving them out never promotes what ranked below them. A lower hit
// came in beside a better one; once that one is out (already shown), the lower one stays only on its
// own merits: it matched a word of the query that none of the shown hits ranked above it matched —
// it answers a part of the question the model does not have yet. Otherwise it rode in on the same
// words as the answer already shown (「那备份要保留多久?」 after 服务器备份策略 was shown: 数据库迁移复盘
// matched only 备份), and injecting it alone is noise. Time-channel answers are memories chosen by
// their day, each one an answer by itself: there only the shown ones go. Pure.
import type { RecallResult } from './types.ts';

export interface ShownSplit<H> {
  /** Hits to inject, in rank order. */
  fresh: H[];
  /** Hits the conversation already shows. */
  shown: H[];
  /** Lower hits left out because they added nothing to a shown hit above them (with the reason). */
  companions: { hit: H; reason: string }[];
}

export interface ShownRuleOptions {
  /** A time-channel answer: memories chosen by day, each an answer by itself. */
  byDay?: boolean;
  /** The query's distinctive words: only these count as a word of a hit's own (absent = every matched word). */
  distinctive?: ReadonlySet<string>;
}

/** What the rule reads of a recall for its options. */
export const shownRuleOptionsOf = (result: Pick<RecallResult, 'explain'>): ShownRuleOptions => ({
  byDay: result.explain.time?.applied === true,
  distinctive: new Set(result.explain.gate.distinctiveTokens),
});

/** Splits a recall's hits (rank order) by the already-shown rule; `isShown` says whether the conversation shows a hit's memory. */
export function splitShownHits<H extends { matched: readonly { token: string }[] }>(hits: readonly H[], isShown: (hit: H) => boolean, options: ShownRuleOptions = {}): ShownSplit<H> {
  const split: ShownSplit<H> = { fresh: [], shown: [], companions: [] };
  const coveredAbove = new Set<string>();
  const counts = (token: string) => options.distinctive === undefined || options.distinctive.has(token);
  for (const hit of hits) {
    if (isShown(hit)) {
      split.shown.push(hit);
      for (const m of hit.matched) coveredAbove.add(m.token);
      continue;
    }
    if (!options.byDay && split.shown.length > 0 && !hit.matched.some((m) => counts(m.token) && !coveredAbove.has(m.token))) {
      const words = hit.matched.map((m) => m.token).join(' ');
      split.companions.push({ hit, reason: words === '' ? 'no word of its own below an answer already shown' : `matched only ${words}, as the answer already shown above it did` });
      continue;
    }
    split.fresh.push(hit);
  }
  return split;
}
