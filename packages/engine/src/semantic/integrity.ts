// The integrity check: a sample of chunks is embedded again and each new vector compared with the
// stored one. A vector stored under the wrong chunk, or made by another model setting, falls far below
// the floor; the same model repeats itself within it.
import { runBatches } from './batch-runner.ts';
import type { IntegrityReport } from './channel-types.ts';
import type { Embedder } from './embedder.ts';
import type { RequestPacer } from './pacer.ts';
import { cosine, normalise, type VectorIndex } from './vector-index.ts';

/**
 * The integrity check's floor: a re-embedded sample must be this close to its stored vector. An
 * 8-bit model's vectors move with their batch-mates (measured down to cosine 0.9917 on CMRC texts,
 * packages/engine/bench/integrity-drift.ts), while another model setting (≤ 0.91) or a vector stored
 * under the wrong chunk (≤ 0.93) are far below; a full-precision model repeats itself to 0.999+.
 */
export const INTEGRITY_MIN_COS = { exact: 0.999, quantised: 0.98 } as const;

export interface IntegrityRun {
  /** The sample as embedded (with its context lines); every id has a stored vector. */
  items: { id: string; text: string }[];
  index: VectorIndex;
  embedder: Embedder;
  pacer: RequestPacer;
  batchSize: number;
  maxRetries: number;
  maxWaitMs?: number;
  backoffBaseMs?: number;
  /** Removes secrets from an error message. */
  safe: (message: string) => string;
}

/** Re-embeds the sample in batches; a batch that fails is an error of the report, never a throw. */
export async function compareWithStored(run: IntegrityRun): Promise<IntegrityReport> {
  const { items, index, embedder } = run;
  const report: IntegrityReport = { checked: 0, minCos: 1, ok: false, failures: [], errors: [] };
  const threshold = embedder.quantised ? INTEGRITY_MIN_COS.quantised : INTEGRITY_MIN_COS.exact;
  report.threshold = threshold;
  const batchSize = Math.max(1, run.batchSize);
  const batches: { id: string; text: string }[][] = [];
  for (let i = 0; i < items.length; i += batchSize) batches.push(items.slice(i, i + batchSize));
  try {
    await runBatches(
      batches.map((b) => b.map((s) => s.text)),
      (texts, signal) => embedder.embed(texts, { signal }),
      {
        pacer: run.pacer,
        maxRetries: run.maxRetries,
        maxWaitMs: run.maxWaitMs,
        backoffBaseMs: run.backoffBaseMs,
        onResult: (r) => {
          const batch = batches[r.index] as { id: string; text: string }[];
          if (!r.vectors) {
            report.errors.push(run.safe(r.error ?? 'unknown error'));
            return;
          }
          batch.forEach((s, i) => {
            const stored = index.vectorOf(s.id);
            const fresh = Float32Array.from(r.vectors?.[i] as Float32Array);
            if (!stored) return;
            const cos = fresh.length === stored.length && normalise(fresh) ? cosine(stored, fresh) : 0;
            report.checked++;
            report.minCos = Math.min(report.minCos, cos);
            if (cos < threshold) report.failures.push({ id: s.id, cos });
          });
        },
      },
    );
  } catch (e) {
    report.errors.push(run.safe(e instanceof Error ? e.message : String(e)));
  }
  if (report.checked === 0) report.minCos = 0;
  report.ok = report.checked > 0 && report.failures.length === 0 && report.errors.length === 0;
  return report;
}
