// Which tokenizer an index was built with, and the first status warning when this process tokenizes
// differently from the index it reads (#13): recall here misses what the other processes wrote, and
// the next index run re-tokenises everything.

/**
 * Bumped whenever the terms a text yields change (text/latin.ts, the stop words): the index stores
 * terms, so an index of older terms is re-tokenised by the next index run instead of silently
 * missing every query term it spells differently. 2: stemmed English words, identifier parts,
 * possessives, the English stop list. 3: a stop word in capitals is an acronym and a term (AM, IT,
 * WHO). 4: an identifier's whole name, separators left out, also as a plain word's term
 * (getUserProfile → getuserprofil, Next.js → nextj, as a question types them). 5: a code joined by -
 * or _ also joined (utf-8 → utf8), a name with a version glued on also the name (python3 → python).
 * 6: traditional Chinese read as simplified (text/script-fold.ts: 會議 → 会议). 7: a Taiwan word read as
 * the mainland's (text/taiwan-words.ts: 伺服器 → 服务器, 軟體 → 软件).
 */
export const TERMS_VERSION = 7;

/** What the index manifest records: the engine, and the terms version after a '+' (version 1 had none). */
export const tokenizerIndexKey = (tokenizer: { engine: string }): string => `${tokenizer.engine}+terms${TERMS_VERSION}`;

export function tokenizerWarnings(builtWith: string | null, active: { engine: string; fallbackReason: string | null }): string[] {
  const out: string[] = [];
  if (builtWith !== null && builtWith !== tokenizerIndexKey(active)) {
    const builtEngine = builtWith.split('+')[0];
    out.push(
      builtEngine === active.engine
        ? `tokenizer mismatch: the index holds terms of an older ${active.engine} tokenizer (${builtWith}, this process: ${tokenizerIndexKey(active)}); recall here misses memories until the next index run re-tokenises everything`
        : `tokenizer mismatch: the index was built with ${builtWith}, this process tokenizes with ${active.engine}; recall here misses memories and the next index run re-tokenises everything — make the CLI, the plugin and the console use one tokenizer`,
    );
  }
  if (active.fallbackReason) out.push(`tokenizer fell back to ${active.engine}: ${active.fallbackReason}`);
  return out;
}
