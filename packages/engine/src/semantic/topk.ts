/** Keeps the k highest-scoring items seen so far; insertion is O(k), which beats a heap for k ≤ ~50. */
export class TopK {
  readonly k: number;
  /** Scores in descending order. */
  readonly scores: number[] = [];
  readonly items: number[] = [];

  constructor(k: number) {
    this.k = Math.max(0, Math.floor(k));
  }

  get size(): number {
    return this.scores.length;
  }

  get full(): boolean {
    return this.scores.length >= this.k;
  }

  /** The score an item must beat to get in; -Infinity while there is room. */
  get threshold(): number {
    return this.full ? (this.scores[this.scores.length - 1] ?? -Infinity) : -Infinity;
  }

  push(item: number, score: number): void {
    if (this.k === 0 || Number.isNaN(score)) return;
    if (this.full && score <= this.threshold) return;
    let i = this.scores.length;
    while (i > 0 && (this.scores[i - 1] as number) < score) i--;
    this.scores.splice(i, 0, score);
    this.items.splice(i, 0, item);
    if (this.scores.length > this.k) {
      this.scores.pop();
      this.items.pop();
    }
  }
}
