// 打开原文: what "look again" found, verbatim, as Markdown — only the passages it found, only what
// the person asked and the assistant answered (a found tool result stands for the exchange that
// called it; tool output and reasoning are never part of it). Code only, no model call. Pure.
import type { StoredBlock } from '@engram/engine';

type Block = Pick<StoredBlock, 'id' | 'kind' | 'title' | 'body' | 'compactionId' | 'seqStart' | 'seqEnd'>;

const KIND_LABEL: Record<Block['kind'], string> = { summary: '压缩摘要', dialogue: '对话原文', tool: '对话原文' };

/** The dialogue blocks of the same compaction whose events include a tool block's event. */
function exchangeOf(tool: Block, blocks: readonly Block[]): Block[] {
  if (tool.seqStart === null) return [];
  return blocks.filter(
    (b) => b.kind === 'dialogue' && b.compactionId === tool.compactionId && b.seqStart !== null && b.seqEnd !== null && b.seqStart <= tool.seqStart! && tool.seqStart! <= b.seqEnd,
  );
}

export function verbatimExcerpt(foundIds: readonly string[], blocks: readonly Block[]): string {
  const byId = new Map(blocks.map((b) => [b.id, b]));
  const picked: Block[] = [];
  for (const id of foundIds) {
    const block = byId.get(id);
    if (!block) continue;
    for (const b of block.kind === 'tool' ? exchangeOf(block, blocks) : [block]) if (!picked.includes(b)) picked.push(b);
  }
  return picked.map((b) => `## ${b.title.trim()}(${KIND_LABEL[b.kind]})\n\n${b.body.trim()}`).join('\n\n');
}
