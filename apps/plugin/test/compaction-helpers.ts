// Fixtures for the compaction tests: a host with the plugin on an empty diary (so the diary recall
// stays silent), a stand-in file tool, the budget checks every injected message must pass.
import assert from 'node:assert/strict';
import type { RecordedRequest, RequestMessage, SimHost } from '@engram/dsh-sim';
import { estimateTokens } from '@engram/engine';
import { isOwn, loadPlugin, makeCorpus, type Loaded } from './helpers.ts';

export const FILE_TEXT = 'listen: 0.0.0.0:8443\nupstream: tokyo-1\n# 443 is taken by nginx';

/** The host requires an output declaration; render returns content blocks. */
const TEXT_OUTPUT = { schema: { type: 'string' }, render: (_args: unknown, value: string) => [{ type: 'text', text: value }] };

/** A host-side "read" tool (what DSH's file tool looks like to a plugin) and a non-read one. */
export const fileTools = {
  name: 'fs-tools',
  inject: ['tools'],
  apply(ctx: any) {
    ctx.tools.register({
      name: 'read',
      description: 'Read a file.',
      parameters: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } },
      output: TEXT_OUTPUT,
      execute: () => FILE_TEXT,
    });
    ctx.tools.register({
      name: 'bash',
      description: 'Run a command.',
      parameters: { type: 'object', required: ['command'], properties: { command: { type: 'string' } } },
      output: TEXT_OUTPUT,
      execute: () => 'BASH-OUTPUT-NOT-A-READ',
    });
  },
};

export async function loadCompactionPlugin(t: { after(fn: () => unknown): void }, config: Record<string, unknown> = {}, host = {}): Promise<Loaded> {
  const loaded = await loadPlugin(t, { corpus: makeCorpus([]), config, host });
  await loaded.host.load(fileTools);
  return loaded;
}

export const compactionMessages = (request: RecordedRequest, form: string): RequestMessage[] => request.messages.filter((m) => isOwn(m, form));

export const ITEM_LINE = /^\[\d+\] /;

/** The items of an injected history message: each heading line with the excerpt under it. */
export function itemsOf(text: string): string[] {
  const lines = text.split('\n').slice(2, -1);
  const items: string[] = [];
  for (const line of lines) {
    if (ITEM_LINE.test(line)) items.push(line);
    else if (items.length > 0) items[items.length - 1] += `\n${line}`;
  }
  return items;
}

export interface Budgets {
  maxItems: number;
  maxItemChars: number;
  maxTokens: number;
}

/** Every history message that reached the model respects the budgets; returns the measured tokens. */
export function assertHistoryBudgets(host: SimHost, budgets: Budgets = { maxItems: 2, maxItemChars: 300, maxTokens: 700 }): number[] {
  const seen = new Set<string>();
  const tokens: number[] = [];
  for (const request of host.requests) {
    for (const message of compactionMessages(request, 'compaction-recall')) {
      if (seen.has(message.content)) continue;
      seen.add(message.content);
      const items = itemsOf(message.content);
      assert.ok(items.length >= 1 && items.length <= budgets.maxItems, `1..${budgets.maxItems} items, got ${items.length}`);
      for (const item of items) assert.ok(Array.from(item).length <= budgets.maxItemChars, `item of ${Array.from(item).length} chars > ${budgets.maxItemChars}: ${item}`);
      const cost = estimateTokens(message.content);
      assert.ok(cost <= budgets.maxTokens, `history message of ${cost} tokens > ${budgets.maxTokens}`);
      tokens.push(cost);
    }
  }
  return tokens;
}
