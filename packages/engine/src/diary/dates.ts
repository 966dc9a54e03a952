// Dates and times as the diary sees them: local calendar dates (YYYY-MM-DD) and HH:MM anchors.

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** A Date for `ms`, or the epoch when `ms` is not a usable timestamp (NaN, or outside years 1000–9999). */
function safeDate(ms: number): Date {
  const d = new Date(Number.isFinite(ms) ? ms : 0);
  if (Number.isNaN(d.getTime())) return new Date(0);
  const y = d.getFullYear();
  return y >= 1000 && y <= 9999 ? d : new Date(0);
}

/** Local YYYY-MM-DD of an epoch-ms timestamp (invalid input → the epoch, never a throw). */
export function localDateString(ms: number): string {
  const d = safeDate(ms);
  return `${String(d.getFullYear()).padStart(4, '0')}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** Local HH:MM of an epoch-ms timestamp. */
export function localTimeString(ms: number): string {
  const d = safeDate(ms);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

export function isValidYmd(y: number, m: number, d: number): boolean {
  if (!(y >= 1000 && y <= 9999 && m >= 1 && m <= 12 && d >= 1)) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

export function ymd(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`;
}

/** "HH:MM" from hour/minute numbers, or null when out of range. */
export function hhmm(h: number, m: number): string | null {
  return h >= 0 && h <= 23 && m >= 0 && m <= 59 ? `${pad2(h)}:${pad2(m)}` : null;
}

/** A valid "YYYY-MM-DD" string? */
export function isDateString(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m !== null && isValidYmd(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** A valid "HH:MM" string? */
export function isTimeString(s: string): boolean {
  const m = /^(\d{2}):(\d{2})$/.exec(s);
  return m !== null && hhmm(Number(m[1]), Number(m[2])) !== null;
}

/**
 * A front-matter date value (created_at / date) → local date and time.
 * Zone-less values are taken literally (they were written in someone's local time); values with an
 * explicit zone (Z, +08:00) or epoch numbers are converted to this machine's local time.
 */
export function parseDateTimeValue(value: string): { date: string; time: string | null } | null {
  const v = value.trim();
  if (/^\d{10}(\d{3})?$/.test(v)) {
    const ms = v.length === 10 ? Number(v) * 1000 : Number(v);
    return { date: localDateString(ms), time: localTimeString(ms) };
  }
  const m =
    /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(v);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isValidYmd(y, mo, d)) return null;
  if (m[4] !== undefined && m[7] !== undefined) {
    const ms = Date.parse(
      `${ymd(y, mo, d)}T${pad2(Number(m[4]))}:${m[5]}:${m[6] ?? '00'}${m[7].toUpperCase() === 'Z' ? 'Z' : m[7].length === 5 ? `${m[7].slice(0, 3)}:${m[7].slice(3)}` : m[7]}`,
    );
    if (!Number.isNaN(ms)) return { date: localDateString(ms), time: localTimeString(ms) };
  }
  const time = m[4] !== undefined ? hhmm(Number(m[4]), Number(m[5])) : null;
  return { date: ymd(y, mo, d), time };
}
