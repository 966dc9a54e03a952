// What the Chinese UI must not show: English words outside an allow-list of product and protocol
// names, and half-width punctuation touching Chinese text. Shared by the console's browser tests.
import type { Page } from 'playwright-core';

/** Words allowed in the Chinese UI: product and protocol names, units, and a few technical terms. */
export const ZH_ALLOWED = new Set(
  'Engram DSH agent English BM BM25 IDF API URL Base Key Embedding LLM JSON HTTP HTTPS ONNX K k1 b ms MB KB jieba gram auto none openai local MCP ID TTL TZ UTC OK idf XML DNS token Tag'
    .split(' ')
    .map((w) => w.toLowerCase()),
);

/** Latin words in visible text, outside code, inputs and monospace identifiers (paths, ids). */
export async function englishWords(page: Page): Promise<{ word: string; context: string }[]> {
  return page.evaluate(() => {
    const out: { word: string; context: string }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('code, pre, script, style, textarea, [data-allow-en], .font-mono, option')) continue;
      if (!el.checkVisibility?.() || el.closest('[hidden], [data-active="false"]')) continue;
      // A file name (2026-10-01-标题-9551ac27.txt) is a name, not an untranslated word.
      const text = (n.textContent ?? '').replace(/[\w\u3400-\u9fff./-]+\.(?:txt|md)\b/g, ' ');
      for (const m of text.matchAll(/[A-Za-z][A-Za-z'-]+/g)) out.push({ word: m[0], context: text.trim().slice(0, 80) });
    }
    return out;
  });
}

/**
 * Half-width , : ; ? ! ( ) touching a Chinese character in visible text (the same exclusions as
 * englishWords): Chinese text takes ，：；？！（）. "Tag: a, b" (the diary syntax) is left alone.
 */
export async function halfWidthPunctuation(page: Page): Promise<{ mark: string; context: string }[]> {
  return page.evaluate(() => {
    const out: { mark: string; context: string }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('code, pre, script, style, textarea, [data-allow-en], .font-mono, option')) continue;
      if (!el.checkVisibility?.() || el.closest('[hidden], [data-active="false"]')) continue;
      const text = (n.textContent ?? '').replace(/Tag: [^」]*/g, '').replace(/[\w\u3400-\u9fff./-]+\.(?:txt|md)\b/g, ' ');
      for (const m of text.matchAll(/[\u3400-\u9fff][,:;?!()]|[()][\u3400-\u9fff]/g)) out.push({ mark: m[0], context: text.trim().slice(0, 80) });
    }
    return out;
  });
}
