// The one config resolver: defaults → config file → env = deploy base; base → overlay → env = effective.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { EngramError, errorMessage } from '../errors.ts';
import { deepMerge, endpointOf, getPath, KEYED_ENDPOINTS, withPath } from './merge.ts';
import { misspeltKeys } from './misspelt-keys.ts';
import { configSchema, type EngramConfig } from './schema.ts';

type Env = Record<string, string | undefined>;

/** Env variable → config path and parser. Env wins over the file and over the console's overlay. */
const ENV_MAP: { name: string; path: string[]; parse: (v: string) => unknown }[] = [
  { name: 'ENGRAM_DIARY_DIR', path: ['diaryDir'], parse: String },
  { name: 'ENGRAM_DATA_DIR', path: ['dataDir'], parse: String },
  { name: 'ENGRAM_LEGACY_DIR', path: ['legacyDir'], parse: String },
  { name: 'ENGRAM_DATABASE_URL', path: ['databaseUrl'], parse: String },
  { name: 'ENGRAM_DATABASE_AUTH_TOKEN', path: ['databaseAuthToken'], parse: String },
  { name: 'ENGRAM_TOKENIZER', path: ['recall', 'tokenizer'], parse: String },
  { name: 'ENGRAM_EMBEDDING_PROVIDER', path: ['embedding', 'provider'], parse: String },
  { name: 'ENGRAM_EMBEDDING_BASE_URL', path: ['embedding', 'baseUrl'], parse: String },
  { name: 'ENGRAM_EMBEDDING_MODEL', path: ['embedding', 'model'], parse: String },
  { name: 'ENGRAM_EMBEDDING_DIMENSIONS', path: ['embedding', 'dimensions'], parse: Number },
  { name: 'ENGRAM_EMBEDDING_KEY', path: ['embedding', 'apiKey'], parse: String },
  { name: 'ENGRAM_EMBEDDING_MODEL_DIR', path: ['embedding', 'modelDir'], parse: String },
  { name: 'ENGRAM_JUDGE_BASE_URL', path: ['judge', 'baseUrl'], parse: String },
  { name: 'ENGRAM_JUDGE_MODEL', path: ['judge', 'model'], parse: String },
  { name: 'ENGRAM_JUDGE_KEY', path: ['judge', 'apiKey'], parse: String },
  { name: 'ENGRAM_ALLOWED_ORIGINS', path: ['console', 'allowedOrigins'], parse: (v) => v.split(',').map((s) => s.trim()).filter(Boolean) },
  { name: 'ENGRAM_ALLOWED_HOSTS', path: ['console', 'allowedHosts'], parse: (v) => v.split(',').map((s) => s.trim()).filter(Boolean) },
  { name: 'ENGRAM_TRUSTED_PROXY', path: ['console', 'trustedProxy'], parse: (v) => v === '1' || v.toLowerCase() === 'true' },
];

export interface ResolveInput {
  /** Explicit options (CLI flags, plugin config) — part of the deploy base, below env. */
  options?: Record<string, unknown>;
  env?: Env;
  /** JSON config file; defaults to $ENGRAM_CONFIG. */
  configFile?: string;
}

export interface ResolvedBase {
  base: EngramConfig;
  /** Env-provided values, re-applied over the overlay. */
  envPatch: Record<string, unknown>;
  lockedByEnv: string[];
}

function envPatchOf(env: Env): { patch: Record<string, unknown>; locked: string[] } {
  let patch: Record<string, unknown> = {};
  const locked: string[] = [];
  for (const { name, path, parse } of ENV_MAP) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    patch = withPath(patch, path, parse(raw));
    locked.push(path.join('.'));
  }
  return { patch, locked };
}

function readConfigFile(file: string): Record<string, unknown> {
  if (!existsSync(file)) throw new EngramError('config-missing', `config file not found: ${file}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('top level must be an object');
  } catch (e) {
    throw new EngramError('config-invalid', `config file ${file} is not valid JSON: ${errorMessage(e)}`);
  }
  const typos = misspeltKeys(parsed as Record<string, unknown>);
  if (typos.length > 0) {
    const zh = typos.map(([written, meant]) => `${written} 不是设置项，是不是 ${meant}？`).join('；');
    const en = typos.map(([written, meant]) => `${written} is not a setting — did you mean ${meant}?`).join('; ');
    throw new EngramError('config-invalid', `配置文件 ${file}：${zh} / config file ${file}: ${en}`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * Where an issue's value came from, as the message names it: the environment variable that set it,
 * with the setting (`ENGRAM_TOKENIZER (recall.tokenizer)`) — a person looks for a setting in the
 * config file, which does not have a value from the environment — else the setting itself.
 * `fromEnv`: the settings the environment set (ResolvedBase.lockedByEnv).
 */
function issuePlace(path: readonly PropertyKey[], fromEnv: readonly string[]): string {
  const setting = path.join('.') || '(root)';
  // A list's item (console.allowedOrigins.0) came from the variable that set the list.
  const variable = ENV_MAP.find((v) => fromEnv.includes(v.path.join('.')) && v.path.every((segment, i) => path[i] === segment));
  return variable ? `${variable.name} (${setting})` : setting;
}

export function parseConfig(input: unknown, where: string, fromEnv: readonly string[] = []): EngramConfig {
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${issuePlace(i.path, fromEnv)}: ${i.message}`).join('; ');
    throw new EngramError('config-invalid', `invalid configuration (${where}): ${issues}`, { issues: parsed.error.issues });
  }
  return parsed.data;
}

/** Fills empty directory settings with defaults under the user's home and makes paths absolute. */
function withDefaultPaths(c: EngramConfig, env: Env): EngramConfig {
  const home = env.HOME || homedir();
  const dataDir = c.dataDir ? resolve(c.dataDir) : join(home, '.engram');
  const diaryDir = c.diaryDir ? resolve(c.diaryDir) : join(dataDir, 'diaries');
  const legacyDir = c.legacyDir ? resolve(c.legacyDir) : '';
  const databaseUrl = c.databaseUrl || `file:${join(dataDir, 'engram.db')}`;
  return { ...c, dataDir, diaryDir, legacyDir, databaseUrl };
}

export function resolveBase(input: ResolveInput = {}): ResolvedBase {
  const env = input.env ?? process.env;
  const file = input.configFile ?? env.ENGRAM_CONFIG;
  let raw: Record<string, unknown> = file ? readConfigFile(isAbsolute(file) ? file : resolve(file)) : {};
  raw = deepMerge(raw, input.options ?? {});
  const { patch, locked } = envPatchOf(env);
  const base = withDefaultPaths(parseConfig(deepMerge(raw, patch), file ? `file ${file} + env` : 'options + env', locked), env);
  return { base, envPatch: patch, lockedByEnv: locked };
}

/** Applies the console's overlay over the base, then env again (env always wins). */
export function applyOverlay(resolved: ResolvedBase, overlay: Record<string, unknown>, env: Env = process.env): EngramConfig {
  const merged = deepMerge(deepMerge(resolved.base as unknown as Record<string, unknown>, overlay), resolved.envPatch);
  // Where the data lives is fixed by the deploy base: the overlay itself is stored there.
  for (const k of ['dataDir', 'databaseUrl', 'databaseAuthToken'] as const) (merged as Record<string, unknown>)[k] = resolved.base[k];
  const config = withDefaultPaths(parseConfig(merged, 'base + overlay', resolved.lockedByEnv), env);
  // A key from env or the config file belongs to the base's endpoint: an overlay that points the
  // endpoint elsewhere without its own key gets no key (it would be sent to the new address).
  for (const section of KEYED_ENDPOINTS) {
    const ownKey = getPath(overlay, [section, 'apiKey']);
    if (typeof ownKey === 'string' && ownKey !== '') continue;
    if (endpointOf(config[section]) !== endpointOf(resolved.base[section])) config[section].apiKey = '';
  }
  return config;
}

export const configValue = (c: EngramConfig, path: string): unknown => getPath(c, path.split('.'));
