// The live chunks' documents (chunkId → docId), read through to the current lexical index: a view of
// the index's own tables, so a load has no copy to build.
import type { LexicalIndex } from '../lexical/bm25.ts';

export interface ChunkDocs extends Iterable<[string, string]> {
  readonly size: number;
  get(chunkId: string): string | undefined;
  has(chunkId: string): boolean;
  keys(): IterableIterator<string>;
}

export function chunkDocsOf(index: () => LexicalIndex): ChunkDocs {
  return {
    get size() {
      return index().size;
    },
    get: (chunkId) => index().docOfChunk(chunkId),
    has: (chunkId) => index().docOfChunk(chunkId) !== undefined,
    *keys() {
      for (const [chunkId] of index().liveChunks()) yield chunkId;
    },
    [Symbol.iterator]: () => index().liveChunks(),
  };
}
