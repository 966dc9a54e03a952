// The answer the person reads, without the raw note markup. A reply that saves a memory carries a
// `<<<DailyNoteStart>>> … <<<DailyNoteEnd>>>` block (the host half writes it to the diary); shown as
// it is, it is a screenful of protocol. In the web UI only, the block becomes a chip 「已记下 · 标题」
// that opens the note's text. The session, and so what the model sees, is untouched: the client
// renders a copy of the message node (packages/client/ui-conversation/src/client/chat/
// AssistantNodeView.tsx in the host renders `node.data.blocks`; the plugin shadows that keyed
// renderer at a lower priority and hands the native one the cleaned copy).
//
// The host's blocks are AssistantBlocks, tagged `kind: 'text'` (packages/client/runtime/src/client/
// sessions/conversation.ts:44, built in ui-conversation/src/client/conversation-nodes/assistant.ts:
// 88-96 and by toAssistantBlocks); a core ContentBlock says `type: 'text'`. Both are read: a shadow
// that looked only at `type` left every answer untouched in the real 0.1.1-rc.2 UI.

const START = '<<<DailyNoteStart>>>';
const END = '<<<DailyNoteEnd>>>';
const FENCE = /^\s*(```|~~~)/;

export interface NoteChip {
  /** 'create' | 'update' (what the block asked), or '' when unreadable. */
  command: string;
  /** The note's title (create) or the start of the passage it changes (update). */
  label: string;
  /** The block's text between the markers, as written. */
  body: string;
  /** The block is still being written (streaming: no end marker yet). */
  open: boolean;
}

function chipOf(body: string, open: boolean): NoteChip {
  const header = (name: string): string => new RegExp(`^\\s*${name}\\s*[:：]\\s*(.+)$`, 'mu').exec(body)?.[1]?.trim() ?? '';
  const command = header('command').toLowerCase();
  const label = command === 'update' ? header('target').slice(0, 24) : header('title');
  return { command, label, body: body.replace(/^\n+|\n+$/g, ''), open };
}

/**
 * The text without its note blocks, and the blocks as chips. Markers inside a code fence are an
 * example being shown, not a note, and stay (as the host half's parser treats them).
 */
export function splitNoteBlocks(text: string): { text: string; notes: NoteChip[] } {
  if (!text.includes(START)) return { text, notes: [] };
  const kept: string[] = [];
  const notes: NoteChip[] = [];
  let fenced = false;
  let inBlock: string[] | null = null;
  for (const line of text.split('\n')) {
    if (inBlock) {
      const end = line.indexOf(END);
      if (end < 0) inBlock.push(line);
      else {
        inBlock.push(line.slice(0, end));
        notes.push(chipOf(inBlock.join('\n'), false));
        inBlock = null;
        const after = line.slice(end + END.length);
        if (after.trim() !== '') kept.push(after);
      }
      continue;
    }
    if (FENCE.test(line)) fenced = !fenced;
    const start = fenced ? -1 : line.indexOf(START);
    if (start < 0) {
      kept.push(line);
      continue;
    }
    const before = line.slice(0, start);
    if (before.trim() !== '') kept.push(before);
    const rest = line.slice(start + START.length);
    const end = rest.indexOf(END);
    if (end >= 0) {
      notes.push(chipOf(rest.slice(0, end), false));
      const after = rest.slice(end + END.length);
      if (after.trim() !== '') kept.push(after);
    } else inBlock = [rest];
  }
  if (inBlock) notes.push(chipOf(inBlock.join('\n'), true));
  return { text: kept.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd(), notes };
}

interface Block {
  kind?: string;
  type?: string;
  text?: string;
  [key: string]: unknown;
}

/** A text block in the host's shape (`kind`) or the core's (`type`). */
const isText = (b: Block | undefined): b is Block & { text: string } => (b?.kind === 'text' || (b?.kind === undefined && b?.type === 'text')) && typeof b.text === 'string';

interface AssistantNode {
  data?: { blocks?: Block[]; [key: string]: unknown };
  [key: string]: unknown;
}

/** A copy of the node with its text blocks cleaned, and the chips; the node itself when it has no note. */
export function withoutNoteBlocks<N extends AssistantNode>(node: N): { node: N; notes: NoteChip[] } {
  const blocks = node?.data?.blocks;
  if (!Array.isArray(blocks) || !blocks.some((b) => isText(b) && b.text.includes(START))) return { node, notes: [] };
  const notes: NoteChip[] = [];
  const cleaned = blocks.map((b) => {
    if (!isText(b)) return b;
    const split = splitNoteBlocks(b.text);
    notes.push(...split.notes);
    return split.text === b.text ? b : { ...b, text: split.text };
  });
  return { node: { ...node, data: { ...node.data, blocks: cleaned } }, notes };
}

/** The chip's words: 「已记下 · 标题」, 「已更新记忆 · …」, or 「正在记下…」 while the block streams. */
export function chipLabel(chip: NoteChip): string {
  if (chip.open) return '正在记下…';
  const what = chip.command === 'update' ? '已更新记忆' : '已记下';
  return chip.label === '' ? what : `${what} · ${chip.label}`;
}
