// Field-level checks of the settings draft, before anything is sent (pure). The engine validates
// again on save; these exist so a person sees which field is wrong, why, and in their language —
// including the cross-field rules (K min ≤ K base ≤ K max) and origins that would be dropped.
import type { FieldSpec, Pair } from './spec.ts';

export type FieldErrors = Record<string, Pair>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** "1–50", "≥ 0", "≤ 10" or null: the range a number field accepts, shown under it. */
export function rangeHint(spec: FieldSpec): Pair | null {
  if (spec.kind !== 'number') return null;
  if (spec.min !== undefined && spec.max !== undefined) return [`范围 ${spec.min}–${spec.max}`, `Range ${spec.min}–${spec.max}`];
  if (spec.min !== undefined) return [`不小于 ${spec.min}`, `At least ${spec.min}`];
  if (spec.max !== undefined) return [`不大于 ${spec.max}`, `At most ${spec.max}`];
  return null;
}

/** An origin as the request guard compares it: scheme://host[:port], nothing after. */
export function originProblem(line: string): Pair | null {
  let url: URL;
  try {
    url = new URL(line);
  } catch {
    return [`「${line}」不是完整的来源,需要带协议,例如 http://127.0.0.1:7860`, `"${line}" is not a full origin; it needs a scheme, e.g. http://127.0.0.1:7860`];
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [`「${line}」只能用 http 或 https`, `"${line}" must use http or https`];
  if (url.origin !== line.replace(/\/$/, '')) return [`「${line}」只写协议、主机和端口,不带路径`, `"${line}" takes only scheme, host and port, no path`];
  return null;
}

function urlProblem(value: unknown): Pair | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const u = new URL(value);
    if (u.protocol === 'http:' || u.protocol === 'https:') return null;
  } catch {
    /* falls through */
  }
  return ['需要以 http:// 或 https:// 开头的完整地址', 'Needs a full address starting with http:// or https://'];
}

export function validateDraft(fields: readonly FieldSpec[], get: (path: string) => unknown): FieldErrors {
  const errors: FieldErrors = {};
  for (const f of fields) {
    if (f.showIf && !f.showIf(get)) continue;
    const v = get(f.path);
    if (f.kind === 'number') {
      const n = num(v);
      if (n === null) errors[f.path] = ['请输入数字', 'Enter a number'];
      else if (f.min !== undefined && n < f.min) errors[f.path] = [`不能小于 ${f.min}`, `Must be at least ${f.min}`];
      else if (f.max !== undefined && n > f.max) errors[f.path] = [`不能大于 ${f.max}`, `Must be at most ${f.max}`];
      else if (f.step !== undefined && Number.isInteger(f.step) && !Number.isInteger(n)) errors[f.path] = ['请输入整数', 'Enter a whole number'];
      else if (f.step === undefined && !Number.isInteger(n)) errors[f.path] = ['请输入整数', 'Enter a whole number'];
    }
    if (f.kind === 'text' && /baseUrl$/i.test(f.path)) {
      const p = urlProblem(v);
      if (p) errors[f.path] = p;
    }
    if (f.path === 'console.allowedOrigins' && Array.isArray(v)) {
      const bad = v.map((line) => originProblem(String(line))).find(Boolean);
      if (bad) errors[f.path] = bad;
    }
  }
  const kMin = num(get('recall.kMin'));
  const kBase = num(get('recall.kBase'));
  const kMax = num(get('recall.kMax'));
  if (kMin !== null && kMax !== null && kMin > kMax && !errors['recall.kMin']) {
    errors['recall.kMin'] = [`注入条数至少（${kMin}）不能大于至多（${kMax}）`, `Items injected: at least (${kMin}) cannot exceed at most (${kMax})`];
  }
  if (kBase !== null && kMin !== null && kMax !== null && kMin <= kMax && (kBase < kMin || kBase > kMax) && !errors['recall.kBase']) {
    errors['recall.kBase'] = [`注入条数基准（${kBase}）应在至少与至多之间（${kMin}–${kMax}）`, `Items injected: base (${kBase}) must lie between at least and at most (${kMin}–${kMax})`];
  }
  return errors;
}
