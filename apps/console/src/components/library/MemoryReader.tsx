'use client';
// A memory to read, not a textarea to squint at: the diary text rendered as its parts — anchor line,
// summary quote, `#`/`##` sections, paragraphs and lists, the Tag and Meta lines — at full height.
import type { ReactNode } from 'react';

type Block =
  | { kind: 'heading'; level: 2 | 3 | 4; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'para'; text: string }
  | { kind: 'meta'; label: string; text: string };

/** Splits a diary text into display blocks (pure). */
export function readingBlocks(raw: string): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (para.length) blocks.push({ kind: 'para', text: para.join('\n') });
    if (list.length) blocks.push({ kind: 'list', items: list });
    para = [];
    list = [];
  };
  for (const line of raw.replace(/\r\n?/g, '\n').split('\n')) {
    const trimmed = line.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(trimmed);
    const anchor = /^\[(\d{1,2}:\d{2})\]\s*(.*)$/.exec(trimmed);
    const meta = /^(Tag|Tags|Meta)\s*[:：]\s*(.*)$/i.exec(trimmed);
    const item = /^([-*•]|\d+[.)、])\s+(.*)$/.exec(trimmed);
    if (!trimmed) flush();
    else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: (heading[1]!.length + 1) as 2 | 3 | 4, text: heading[2]! });
    } else if (anchor && blocks.length === 0 && para.length === 0) blocks.push({ kind: 'heading', level: 2, text: `${anchor[1]} ${anchor[2]}`.trim() });
    else if (trimmed.startsWith('>')) {
      flush();
      blocks.push({ kind: 'quote', text: trimmed.replace(/^>\s?/, '') });
    } else if (meta) {
      flush();
      blocks.push({ kind: 'meta', label: meta[1]!, text: meta[2]! });
    } else if (item) {
      if (para.length) flush();
      list.push(item[2]!);
    } else {
      if (list.length) flush();
      para.push(trimmed);
    }
  }
  flush();
  return blocks;
}

export function MemoryReader({ raw, labels }: { raw: string; labels: { tags: string; meta: string } }) {
  const out: ReactNode[] = readingBlocks(raw).map((b, i) => {
    switch (b.kind) {
      case 'heading':
        return b.level === 2 ? (
          <h2 key={i} className="text-base font-semibold">
            {b.text}
          </h2>
        ) : b.level === 3 ? (
          <h3 key={i} className="mt-2 border-b border-line pb-0.5 text-sm font-semibold">
            {b.text}
          </h3>
        ) : (
          <h4 key={i} className="mt-1 text-sm font-semibold text-muted">
            {b.text}
          </h4>
        );
      case 'quote':
        return (
          <blockquote key={i} className="border-l-2 border-accent/60 pl-3 text-muted">
            {b.text}
          </blockquote>
        );
      case 'list':
        return (
          <ul key={i} className="list-disc pl-5">
            {b.items.map((it, j) => (
              <li key={j}>{it}</li>
            ))}
          </ul>
        );
      case 'meta':
        return (
          <p key={i} className="text-xs text-muted">
            <span className="font-medium">{/^tag/i.test(b.label) ? labels.tags : labels.meta}</span> {b.text}
          </p>
        );
      default:
        return (
          <p key={i} className="whitespace-pre-wrap">
            {b.text}
          </p>
        );
    }
  });
  return (
    <article className="flex flex-col gap-2 rounded-md border border-line bg-panel px-3 py-2.5 text-sm leading-relaxed break-words" data-testid="memory-reader">
      {out}
    </article>
  );
}
