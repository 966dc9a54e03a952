export interface ScoredSlot {
  slot: number;
  score: number;
}

/**
 * The best `limit` of the candidate slots by descending score, ties broken by `tieBefore`.
 * Insertion into a short sorted buffer: limit is tens while candidates can be every chunk, and most
 * candidates are rejected by one comparison with the current last place.
 */
export function selectTop(
  candidates: Int32Array,
  candidateCount: number,
  scores: Float64Array,
  limit: number,
  tieBefore: (slot: number, other: number) => boolean,
): ScoredSlot[] {
  const best: ScoredSlot[] = [];
  const ranksBefore = (slot: number, score: number, other: ScoredSlot): boolean =>
    score !== other.score ? score > other.score : tieBefore(slot, other.slot);
  for (let i = 0; i < candidateCount; i++) {
    const slot = candidates[i]!;
    const score = scores[slot]!;
    if (best.length === limit && !ranksBefore(slot, score, best[limit - 1]!)) continue;
    let at = best.length < limit ? best.push({ slot, score }) - 1 : limit - 1;
    while (at > 0 && ranksBefore(slot, score, best[at - 1]!)) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = { slot, score };
  }
  return best;
}
