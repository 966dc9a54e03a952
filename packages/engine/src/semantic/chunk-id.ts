/** Chunk ids are `${docId}#${ordinal}` (index/rows.ts). */
export const docIdOfChunk = (chunkId: string): string => {
  const hash = chunkId.lastIndexOf('#');
  return hash < 0 ? chunkId : chunkId.slice(0, hash);
};
