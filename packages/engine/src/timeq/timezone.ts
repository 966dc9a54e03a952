// The time zone of a data directory: detected once, at first run, and stored in `meta`, so that
// moving the machine to another zone does not shift what "昨天" means for old memories.
import { getMeta, setMeta, type EngramDb } from '@engram/db';
import { usableTimeZone } from './calendar.ts';

export const TIME_ZONE_META_KEY = 'timeZone';

/**
 * Shaped like an IANA zone name ("Asia/Shanghai", "UTC", "Etc/GMT+8"), checked without ICU: whether
 * the runtime knows it is checked on first use (EngineState.timeZone), since loading ICU's zone data
 * costs ~25 ms that a one-shot `engram status` or `write` never needs.
 */
export const zoneShaped = (zone: string): boolean => /^[A-Za-z][A-Za-z0-9_+\-]*(?:\/[A-Za-z0-9_+\-]+)*$/.test(zone) && zone.length <= 64;

/** This machine's IANA zone; 'UTC' when the runtime cannot tell. */
export function detectTimeZone(): string {
  return usableTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';
}

/**
 * The stored zone, storing the detected one when there is none (or the stored one is unusable).
 * A database that cannot be written still answers, with the detected zone.
 */
export async function ensureTimeZone(
  db: EngramDb,
  detect: () => string = detectTimeZone,
  usable: (zone: string) => boolean = (zone) => usableTimeZone(zone) !== undefined,
): Promise<{ timeZone: string; stored: boolean }> {
  const stored = await getMeta(db, TIME_ZONE_META_KEY);
  if (stored && usable(stored)) return { timeZone: stored, stored: true };
  const timeZone = detect();
  try {
    await setMeta(db, TIME_ZONE_META_KEY, timeZone);
    return { timeZone, stored: true };
  } catch {
    return { timeZone, stored: false };
  }
}
