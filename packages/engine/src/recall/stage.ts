// The shape of one recall stage and the runner that strings stages together (#18). A stage takes the
// candidates and the recall's context and returns the candidates it keeps plus a record of what it
// did; the runner times each stage and collects the records the explanation is derived from.

/** What a stage reports about itself (the explanation is built from these). */
export interface StageRecord {
  kept: number;
  dropped: number;
  note?: string;
}

export interface Stage<C, Ctx> {
  readonly name: string;
  run(candidates: C[], ctx: Ctx): Promise<{ candidates: C[]; record: StageRecord }> | { candidates: C[]; record: StageRecord };
}

export interface TimedRecord extends StageRecord {
  name: string;
  ms: number;
}

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

/** Runs `stages` in order, each on the previous one's candidates; returns the last candidates and one timed record per stage. */
export async function runStages<C, Ctx>(stages: readonly Stage<C, Ctx>[], initial: C[], ctx: Ctx): Promise<{ candidates: C[]; records: TimedRecord[] }> {
  let candidates = initial;
  const records: TimedRecord[] = [];
  for (const stage of stages) {
    const t0 = performance.now();
    const out = await stage.run(candidates, ctx);
    records.push({ name: stage.name, ms: ms(t0), ...out.record });
    candidates = out.candidates;
  }
  return { candidates, records };
}
