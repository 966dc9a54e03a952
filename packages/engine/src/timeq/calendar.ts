// Calendar days in a named time zone. A "day" here is a local calendar date (YYYY-MM-DD) in the
// zone the data directory was set up in, never a UTC date: at 01:00 in Shanghai, "yesterday" is
// the local yesterday, which UTC would get wrong for eight hours of every day.

export interface Ymd {
  y: number;
  m: number;
  d: number;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

export const formatYmd = ({ y, m, d }: Ymd): string => `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`;

let knownZones: Set<string> | undefined;

/** A usable IANA zone name, or undefined (= this machine's zone) when Intl does not know it. */
export function usableTimeZone(timeZone: string | undefined): string | undefined {
  if (!timeZone) return undefined;
  // The first formatter with a zone loads ICU's zone data, ~10-15 ms of a one-shot command that may
  // never format a date; the list of canonical zones (which every formatter accepts) costs ~1 ms. UTC
  // is required of every implementation. Aliases and anything else are still tried on a formatter.
  knownZones ??= new Set(['UTC', ...(Intl.supportedValuesOf?.('timeZone') ?? [])]);
  if (knownZones.has(timeZone)) return timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Building an Intl formatter costs ~0.1 ms; recall asks on every query, so one per zone is kept. */
function dayFormatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const zone = usableTimeZone(timeZone);
  const key = zone ?? '';
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' });
    formatters.set(key, f);
  }
  return f;
}

/** The local calendar day of `now` in `timeZone` (an unknown zone means this machine's zone). */
export function localDay(now: Date, timeZone: string | undefined): Ymd {
  const parts = dayFormatter(timeZone).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { y: get('year'), m: get('month'), d: get('day') };
}

const stampFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * "YYYY-MM-DD" and "HH:MM" of `ms` in `timeZone` (an unknown zone means this machine's zone): how
 * session times are shown, in the zone the data directory was set up in, so a machine that later
 * runs in another zone (or with TZ=UTC) shows the same history the same way.
 */
export function zonedStamp(ms: number, timeZone: string | undefined): { date: string; time: string } {
  const zone = usableTimeZone(timeZone);
  let f = stampFormatters.get(zone ?? '');
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
    stampFormatters.set(zone ?? '', f);
  }
  const at = new Date(Number.isFinite(ms) ? ms : 0);
  const parts = f.formatToParts(Number.isNaN(at.getTime()) ? new Date(0) : at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { date: formatYmd({ y: get('year'), m: get('month'), d: get('day') }), time: `${pad2(get('hour'))}:${pad2(get('minute'))}` };
}

/** Calendar arithmetic on plain dates (UTC underneath, so no zone or DST can shift a day). */
export function addDays(day: Ymd, delta: number): Ymd {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + delta));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** ISO weekday: Monday = 1 … Sunday = 7. */
export function isoWeekday(day: Ymd): number {
  const w = new Date(Date.UTC(day.y, day.m - 1, day.d)).getUTCDay();
  return w === 0 ? 7 : w;
}

export function isValidDay(y: number, m: number, d: number): boolean {
  if (!(Number.isInteger(y) && Number.isInteger(m) && Number.isInteger(d))) return false;
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function compareDays(a: Ymd, b: Ymd): number {
  return a.y - b.y || a.m - b.m || a.d - b.d;
}
