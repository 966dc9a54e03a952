'use client';
// A text with the searched words marked (<mark>), split by highlightSpans.
import { highlightSpans } from './highlight.ts';

export function Marked({ text, words }: { text: string; words: readonly string[] }) {
  if (words.length === 0) return <>{text}</>;
  return (
    <>
      {highlightSpans(text, words).map((s, i) =>
        s.hit ? (
          <mark key={i} className="rounded-sm bg-accent-soft px-0.5 text-fg" data-testid="search-mark">
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}
