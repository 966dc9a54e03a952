// The first status warning when this process tokenizes differently from the index it reads (#13):
// recall here misses what the other processes wrote, and the next index run re-tokenises everything.
export function tokenizerWarnings(builtWith: string | null, active: { engine: string; fallbackReason: string | null }): string[] {
  const out: string[] = [];
  if (builtWith !== null && builtWith !== active.engine) {
    out.push(
      `tokenizer mismatch: the index was built with ${builtWith}, this process tokenizes with ${active.engine}; recall here misses memories and the next index run re-tokenises everything — make the CLI, the plugin and the console use one tokenizer`,
    );
  }
  if (active.fallbackReason) out.push(`tokenizer fell back to ${active.engine}: ${active.fallbackReason}`);
  return out;
}
