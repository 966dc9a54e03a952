// The real host's path from a session's assistant step to what the person reads, reproduced for
// tests of the plugin's renderer shadow. Host: sumomok/deepseek-harness b150a551 (0.1.1-rc.2).
//
// 1. The step becomes a chat node `{ key, kind: 'assistant-step', data }` whose `data.blocks` are
//    AssistantBlocks `{ kind: 'text' | 'reasoning' | 'tool-call' | …, text }` — `kind`, not `type`
//    (packages/client/ui-conversation/src/client/conversation-nodes/assistant.ts:88-96 builds them
//    from chunks, :159/:196 from the final message through toAssistantBlocks; common.ts:49-58 the
//    node; the type is packages/client/runtime/src/client/sessions/conversation.ts:44).
// 2. ChatNodeSeat renders it through the keyed slot, `entryKey: node.kind`
//    (packages/client/ui-conversation/src/client/chat/ChatNodeSeat.tsx:50-52).
// 3. The outlet renders the cell's winner: entries sorted by priority ascending, the first live one
//    (packages/client/ui-slots/src/index.ts:866 sort, :936-951 entriesOfSlot;
//    packages/client/ui-renderer/src/client/scoped-slots.tsx:766-772).
// 4. Its props are the standard kit (with `t` only when the registration declared `locale`,
//    scoped-slots.tsx:407-415), the entry's inject, the slot's inject, then the owner's props
//    (scoped-slots.tsx:485).
// 5. The native renderer, AssistantNodeView, hands `data.blocks` to AssistantMarkdown
//    (AssistantNodeView.tsx:23-31), which renders each `block.kind === 'text'` as Markdown, a
//    reasoning block as a Think row, and skips tool-call heads (AssistantMarkdown.tsx:50-94).
import type { SlotTable } from '@engram/dsh-sim';
import type { Element } from './mini-react.ts';

export type HostBlock = { kind: 'text' | 'reasoning'; text: string } | { kind: 'tool-call'; callId: string; name: string; argsRaw: string };

/** A settled (or running) assistant step as the host's chat snapshot holds it (frozen: the renderer must not edit it). */
export function assistantStepNode(blocks: HostBlock[], status: 'running' | 'settled' | 'interrupted' = 'settled') {
  const frozen = Object.freeze(blocks.map((b) => Object.freeze({ ...b })));
  const finalNode = status === 'settled' ? Object.freeze({ kind: 'assistant', seq: 12, messageId: 'msg-1', time: 1, turn: 1, step: 1, blocks: frozen }) : undefined;
  return Object.freeze({
    key: 'assistant-step:1:1',
    kind: 'assistant-step' as const,
    id: '1:1',
    target: 'chat',
    anchorSeq: 12,
    location: Object.freeze({ kind: 'step', turn: { status: 'closed' }, step: { status: 'closed' } }),
    visibility: 'visible',
    data: Object.freeze({ status, turn: 1, step: 1, blocks: frozen, time: 1, ...(finalNode ? { finalNode } : {}) }),
  });
}

/** The host's assistant renderer in small: AssistantNodeView → AssistantMarkdown over `data.blocks`. */
export function NativeAssistantNodeView(props: { node: { data: { blocks: readonly HostBlock[] } }; t: (key: string) => string }): Element {
  const rendered: Element[] = [];
  for (const block of props.node.data.blocks) {
    if (block.kind === 'text') rendered.push({ type: 'div', props: { 'data-host': 'markdown', children: [block.text] } });
    else if (block.kind === 'reasoning') rendered.push({ type: 'div', props: { 'data-host': 'think', children: [props.t('think')] } });
  }
  return { type: 'div', props: { 'data-host': 'assistant', children: rendered } };
}

/** How ui-conversation registers it (register-node-renderers.ts:22-23). */
export const NATIVE_ASSISTANT_OPTIONS = { name: 'conversation.chat.node', key: 'assistant-step', locale: 'conversation' };

/** The owner's and kit's props the host hands the winner (ChatNodeSeat.tsx:25-42, scoped-slots.tsx:407-485). */
export function hostProps(winner: { options: Record<string, unknown> } & Record<string, unknown>, node: unknown, extra: Record<string, unknown> = {}) {
  const locale = winner.locale ?? winner.options.locale;
  const kit: Record<string, unknown> = { sessionId: 'session-1', useSession: () => undefined };
  if (typeof locale === 'string') kit.t = (key: string) => `${locale}.${key}`;
  const owner = { selectedCallId: undefined, cwd: '/work', openFile: () => {}, inspectCall: () => {}, forkAt: () => {}, renderMessageImages: () => null, fileMentions: () => undefined };
  return { ...kit, useTurnData: () => undefined, ...owner, node, ...extra };
}

/** The entry the host renders for a chat node: the keyed cell's lowest priority (ChatNodeSeat → outlet). */
export function hostWinner(slots: SlotTable, node: { kind: string }) {
  return slots.winner('conversation.chat.node', node.kind);
}

/** Expands the host's native renderer wherever the plugin's tree names it (mini-react renders one component). */
export function expandNative(node: unknown): unknown {
  if (node === null || typeof node !== 'object') return node;
  const e = node as Element;
  if (e.type === NativeAssistantNodeView) return NativeAssistantNodeView(e.props as never);
  return { ...e, props: { ...e.props, children: (e.props?.children ?? []).map(expandNative) } };
}
