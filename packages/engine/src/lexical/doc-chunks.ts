// Document → its chunks' ids, for the lexical index. Most memories are one chunk: such a document
// holds its chunk id itself, and only one of several chunks gets a Set. A Set per document was ~9 MB
// of the heap at 50,000 notes (a heap snapshot at the end of an index pass: 50,917 sets), in every
// process that holds the index.
export class DocChunks {
  private readonly byDoc = new Map<string, string | Set<string>>();

  add(docId: string, chunkId: string): void {
    const held = this.byDoc.get(docId);
    if (held === undefined) this.byDoc.set(docId, chunkId);
    else if (typeof held === 'string') {
      if (held !== chunkId) this.byDoc.set(docId, new Set([held, chunkId]));
    } else held.add(chunkId);
  }

  delete(docId: string, chunkId: string): void {
    const held = this.byDoc.get(docId);
    if (held === undefined) return;
    if (typeof held === 'string') {
      if (held === chunkId) this.byDoc.delete(docId);
      return;
    }
    held.delete(chunkId);
    if (held.size === 1) this.byDoc.set(docId, held.values().next().value as string);
    else if (held.size === 0) this.byDoc.delete(docId);
  }

  /** The document's chunk ids, in the order they were added. */
  chunksOf(docId: string): string[] {
    const held = this.byDoc.get(docId);
    return held === undefined ? [] : typeof held === 'string' ? [held] : [...held];
  }

  countOf(docId: string): number {
    const held = this.byDoc.get(docId);
    return held === undefined ? 0 : typeof held === 'string' ? 1 : held.size;
  }

  /** How many documents have a chunk. */
  get size(): number {
    return this.byDoc.size;
  }

  docIds(): IterableIterator<string> {
    return this.byDoc.keys();
  }
}
