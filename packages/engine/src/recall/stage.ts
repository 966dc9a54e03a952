// The shape of one recall stage and the runner that strings stages together (#18). A stage takes the
// candidates and the recall's context and returns the candidates it keeps plus a record of what it
// did; the runner times each stage and collects the records the explanation is derived from.

/** What a stage reports about itself (the explanation is built from these). */
export interface StageRecord<X = unknown> {
  kept: number;
  dropped: number;
  note?: string;
  /**
   * false: a step that moves no candidates (tokenizing the query, fetching chunk texts): timed like
   * every stage, but left out of the candidate counts the explanation lists.
   */
  listed?: boolean;
  /** The stage's part of the explanation (merged in stage order by the pipeline). */
  explain?: X;
}

export interface Stage<C, Ctx, X = unknown> {
  readonly name: string;
  run(candidates: C[], ctx: Ctx): Promise<{ candidates: C[]; record: StageRecord<X> }> | { candidates: C[]; record: StageRecord<X> };
}

export interface TimedRecord<X = unknown> extends StageRecord<X> {
  name: string;
  ms: number;
}

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

/** Runs `stages` in order, each on the previous one's candidates; returns the last candidates and one timed record per stage. */
export async function runStages<C, Ctx, X = unknown>(stages: readonly Stage<C, Ctx, X>[], initial: C[], ctx: Ctx): Promise<{ candidates: C[]; records: TimedRecord<X>[] }> {
  let candidates = initial;
  const records: TimedRecord<X>[] = [];
  for (const stage of stages) {
    const t0 = performance.now();
    const out = await stage.run(candidates, ctx);
    records.push({ name: stage.name, ms: ms(t0), ...out.record });
    candidates = out.candidates;
  }
  return { candidates, records };
}
