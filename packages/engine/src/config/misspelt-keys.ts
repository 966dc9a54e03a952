// Keys of a config file that misspell a setting. The schema drops a key it does not know, so
// {"recall":{"kbase":5}} ran with the default kBase and said nothing. A key like no setting (one from
// another tool, or an option an older version had) is left alone: refusing it would break a config
// that worked. Pure.
import { getPath, isPlainObject } from './merge.ts';
import { configShape, unknownPaths } from './patch-shape.ts';
import { nearestSpelling } from '../text/nearest.ts';

/**
 * Each key of `raw` the settings (`known`, the config's default shape: every section and setting) do
 * not have but that likely means a setting beside it, as [the path written, the path meant]. The keys
 * the settings lack are those patch-shape.ts unknownPaths finds (a free-form map has no settings to mean).
 */
export function misspeltKeys(raw: Record<string, unknown>, known: Record<string, unknown> = configShape()): [string, string][] {
  return unknownPaths(raw, known).flatMap((path): [string, string][] => {
    const section = path.split('.');
    const key = section.pop() as string;
    const siblings = getPath(known, section);
    const meant = isPlainObject(siblings) ? nearestSpelling(key, Object.keys(siblings)) : null;
    return meant ? [[path, [...section, meant].join('.')]] : [];
  });
}
