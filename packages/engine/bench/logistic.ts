// Weighted logistic regression for the gate fits (bench/fit-gate.ts, bench/fit-query-gate.ts). Pure.

/** One example: features with a leading 1 for the bias, its label (0/1) and its weight. */
export type Sample = { x: number[]; y: number; w: number };

/** Newton–Raphson with a small ridge (not on the bias). */
export function fitLogistic(data: Sample[], ridge = 1e-3, iters = 30): number[] {
  const d = data[0]?.x.length ?? 1;
  let w = new Array(d).fill(0);
  for (let it = 0; it < iters; it++) {
    const g = new Array(d).fill(0);
    const H = Array.from({ length: d }, () => new Array(d).fill(0));
    for (const s of data) {
      let z = 0;
      for (let i = 0; i < d; i++) z += (w[i] as number) * (s.x[i] as number);
      const p = 1 / (1 + Math.exp(-z));
      const r = s.w * (p - s.y);
      const h = s.w * p * (1 - p);
      for (let i = 0; i < d; i++) {
        g[i] += r * s.x[i]!;
        for (let j = 0; j < d; j++) H[i]![j] += h * s.x[i]! * s.x[j]!;
      }
    }
    for (let i = 1; i < d; i++) {
      g[i] += ridge * w[i];
      H[i]![i] += ridge;
    }
    const step = solve(H, g);
    w = w.map((v, i) => v - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-7) break;
  }
  return w;
}

function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((r, i) => [...r, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    [M[c], M[p]] = [M[p]!, M[c]!];
    const piv = M[c]![c]! || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / piv;
      for (let k = c; k <= n; k++) (M[r] as number[])[k] = (M[r]![k] as number) - f * (M[c]![k] as number);
    }
  }
  return M.map((r, i) => r[n]! / (M[i]![i]! || 1e-12));
}
