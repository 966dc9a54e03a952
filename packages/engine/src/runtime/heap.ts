// Bounds the garbage a long bulk pass leaves on the heap. A full pass over 50,000 diaries allocates
// far more than it keeps (file text, tokens, rows, statements), and V8 lets the old generation grow
// to a few hundred MB of dead objects before it collects them: the process peaked at 421–465 MiB,
// of which ~100 MB was garbage, while the same pass collecting every few thousand documents peaked
// at 353 MiB in the same time (docs/benchmarks.md).
//
// Node offers no way to lower the heap limit once started, but a full collection can be asked for:
// `--expose-gc` set at run time takes effect for contexts created after it, which is how test
// runners' leak detectors get `gc`. When anything about that fails, collection is left to V8.
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';

// node:v8 only when a collection is asked for: every engine open reads this module, and the heap's
// size is process.memoryUsage().heapUsed (V8's used_heap_size, what getHeapStatistics reports).
const heapUsed = (): number => process.memoryUsage().heapUsed;

let collect: (() => void) | null | undefined;

function fullCollection(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    const existing = (globalThis as { gc?: unknown }).gc;
    if (typeof existing === 'function') return (collect = existing as () => void);
    (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    collect = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    collect = null;
  }
  return collect;
}

/**
 * Collects when the heap has grown by `growthBytes` since the last collection (or since the
 * budget was made): a pass over a few hundred files never collects, a pass over 50,000 a few
 * dozen times (each well under 100 ms).
 */
export class HeapBudget {
  private base = heapUsed();
  collections = 0;

  constructor(private readonly growthBytes = 64 * 1024 * 1024) {}

  /** Call between batches. */
  check(): void {
    const used = heapUsed();
    if (used - this.base < this.growthBytes) return;
    const gc = fullCollection();
    if (!gc) {
      this.base = used; // nothing to do but not to ask again at every batch
      return;
    }
    gc();
    this.collections++;
    this.base = heapUsed();
  }
}
