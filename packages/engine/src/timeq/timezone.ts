// The time zone of a data directory: detected once, at first run, and stored in `meta`, so that
// moving the machine to another zone does not shift what "昨天" means for old memories.
import { readFileSync, readlinkSync } from 'node:fs';
import { getMeta, setMeta, type EngramDb } from '@engram/db';
import { usableTimeZone } from './calendar.ts';

export const TIME_ZONE_META_KEY = 'timeZone';

/**
 * Shaped like an IANA zone name ("Asia/Shanghai", "UTC", "Etc/GMT+8"), checked without ICU: whether
 * the runtime knows it is checked on first use (EngineState.timeZone), since loading ICU's zone data
 * costs ~25 ms that a one-shot `engram status` or `write` never needs.
 */
export const zoneShaped = (zone: string): boolean => /^[A-Za-z][A-Za-z0-9_+\-]*(?:\/[A-Za-z0-9_+\-]+)*$/.test(zone) && zone.length <= 64;

/** What detecting the machine's zone reads; injected so tests can play any machine. */
export interface ZoneProbe {
  /** The TZ environment variable. */
  env(): string | undefined;
  /** The zone the runtime's ICU resolved. */
  intl(): string | undefined;
  readLink(path: string): string | null;
  readText(path: string): string | null;
}

const systemProbe: ZoneProbe = {
  env: () => process.env.TZ,
  intl: () => Intl.DateTimeFormat().resolvedOptions().timeZone,
  readLink: (path) => {
    try {
      return readlinkSync(path);
    } catch {
      return null;
    }
  },
  readText: (path) => {
    try {
      return readFileSync(path, 'latin1');
    } catch {
      return null;
    }
  },
};

const isUtc = (zone: string | undefined): boolean => zone === undefined || /^(Etc\/)?(UTC|GMT|UCT|Universal|Zulu|Unknown)$/.test(zone);

/** "Asia/Shanghai" from a link such as /usr/share/zoneinfo/Asia/Shanghai (or ../usr/share/zoneinfo/…). */
function zoneOfLink(target: string | null): string | undefined {
  const at = target?.indexOf('zoneinfo/') ?? -1;
  return at < 0 ? undefined : usableTimeZone(target!.slice(at + 'zoneinfo/'.length).replace(/^(posix|right)\//, ''));
}

/**
 * A fixed-offset zone from the POSIX rule a TZif v2+ file ends with ("CST-8" → Etc/GMT-8; POSIX and
 * Etc/GMT both count hours west of Greenwich). Daylight saving is lost, the day is right most of the year.
 */
function zoneOfTzif(content: string | null): string | undefined {
  if (!content?.startsWith('TZif')) return undefined;
  const rule = /\n([^\n]*)\n?$/.exec(content)?.[1];
  const m = rule ? /^(?:[A-Za-z]{3,}|<[^>]+>)([+-]?)(\d{1,2})(?::(\d{2}))?/.exec(rule) : null;
  if (!m || m[3] !== undefined && m[3] !== '00') return undefined;
  const west = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  return west === 0 ? undefined : usableTimeZone(`Etc/GMT${west > 0 ? '+' : '-'}${Math.abs(west)}`);
}

/**
 * This machine's IANA zone. TZ when set; else the runtime's, unless it says UTC: an ICU that cannot
 * name the zone (a container with a copied /etc/localtime and no zoneinfo folder) says UTC, and
 * then 「昨天」 would be the UTC yesterday for a user in Shanghai, so the system files are asked
 * (/etc/timezone, the /etc/localtime link, the rule inside /etc/localtime). 'UTC' when none tells.
 */
export function detectTimeZone(probe: ZoneProbe = systemProbe): string {
  const env = probe.env();
  const fromEnv = env ? usableTimeZone(env.replace(/^:/, '')) : undefined;
  if (fromEnv) return fromEnv;
  const intl = usableTimeZone(probe.intl());
  if (intl && !isUtc(intl)) return intl;
  const fromSystem =
    usableTimeZone(probe.readText('/etc/timezone')?.trim()) ?? zoneOfLink(probe.readLink('/etc/localtime')) ?? zoneOfTzif(probe.readText('/etc/localtime'));
  if (fromSystem && !isUtc(fromSystem)) return fromSystem;
  return intl && intl !== 'Etc/Unknown' ? intl : 'UTC';
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
