// The parts of the docs that restate what the code decides are generated from the code, so they
// cannot drift: the settings and their defaults (docs/configuration.md, from config/schema.ts), the
// gate table (docs/architecture.md, from the defaults and the fitted constants of the hybrid gate)
// and the tool profiles with their fixed token cost (docs/plugin.md, from the plugin in the
// simulated host). Each lives between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`.
// Prose elsewhere that names a setting in backticks followed by a number (`recall.minCoverage` 0.3)
// is checked against the default as well.
//
//   node --import tsx scripts/docs-sections.ts           # check: lists what differs, exit 1 if anything does
//   node --import tsx scripts/docs-sections.ts --write   # rewrite the generated sections
//
// scripts/docs-sections.test.ts runs the check in `npm test`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchema } from '../packages/engine/src/config/schema.ts';
import { FITTED_LEXICAL_QUERY_GATE, FITTED_QUERY_GATE } from '../packages/engine/src/recall/hybrid-gate.ts';
import { SPECIFICITY_COVERAGE_WEIGHT } from '../packages/engine/src/recall/scoring.ts';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Every leaf of the default configuration, by dotted path (arrays are leaves). */
export function defaultLeaves(): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  const walk = (value: unknown, path: string[]) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    else leaves.set(path.join('.'), value);
  };
  walk(configSchema.parse({}), []);
  return leaves;
}

const cell = (v: unknown): string => (v === '' ? '(empty)' : `\`${JSON.stringify(v).replaceAll('|', '\\|')}\``);

function configDefaults(): string {
  const rows = [...defaultLeaves()].map(([path, v]) => `| \`${path}\` | ${cell(v)} |`);
  return ['| setting | default |', '|---|---|', ...rows].join('\n');
}

function gateTable(): string {
  const d = defaultLeaves();
  const n = (path: string) => d.get(path) as number;
  const query = FITTED_QUERY_GATE ? FITTED_QUERY_GATE.threshold : null;
  const rows: [string, string, string][] = [
    ['no distinctive query term', 'the query', `no query token of length ≥ ${n('recall.minTokenLen')} with IDF ≥ min(${n('recall.minTokenIdf')}, half the corpus ceiling) → inject nothing`],
    ['vague query', 'the query', `the query's words carry < ${n('recall.minQueryInformation')} of general-language information (jieba's IDF table, and < ${n('recall.minLoneWordInformation')} when one word carries it all in a Chinese line that asks no question; an English query < ${n('recall.english.minQueryInformation')}, the English table, and < ${n('recall.english.minLoneWordInformation')} when one word carries it all in a line that opens with no question word; a search meets no one-word bar), words about the conversation in hand not counted (\`text/talk-words.ts\`: lol, one sec, revert it, 暂停) → inject nothing; a search (\`RecallOptions.typedAs\` \`search\`: the memory tools, the light view) counts every word and has no lone-word bar`],
    ['distinctive term', 'hits with lexical matches', 'must match at least one distinctive token'],
    ['coverage', 'hits with lexical matches', `the matched words must carry ≥ ${Math.round(n('recall.minCoverage') * 100)} % of the query's weight, weights from general-language IDF (a name the corpus never saw weighs a lot, 公司 little)`],
    ['specificity', 'hits with lexical matches', `${SPECIFICITY_COVERAGE_WEIGHT} × coverage + (IDF of the rarest matched word ÷ the corpus's highest possible IDF) ≥ ${n('recall.minSpecificity')}: a hit that matched only words many chunks share is out (fitted on CMRC, corpus-size independent)`],
    [
      'lexical: query gate',
      `the query, when only the words searched (no model, or its vectors not written yet; \`recall.hybridGate.queryGate\` not \`off\`), its distinctive words mostly Chinese and one candidate through the rule gates above`,
      FITTED_LEXICAL_QUERY_GATE === null
        ? 'off'
        : `a fitted logistic over what the words show together (best coverage, best rarity, share the rules let through, the most of the question's character pairs (and English words beside them) one of the first five repeats, the longest stretch of the question one of them repeats verbatim, the most of the question's weight one sentence of them holds: \`FITTED_LEXICAL_QUERY_GATE\` in \`recall/hybrid-gate.ts\`) below ${FITTED_LEXICAL_QUERY_GATE.threshold}${FITTED_LEXICAL_QUERY_GATE.largeStore ? ` in a store of up to ${FITTED_LEXICAL_QUERY_GATE.smallStore} chunks, falling with log(chunks) to ${FITTED_LEXICAL_QUERY_GATE.largeStore.threshold} at ${FITTED_LEXICAL_QUERY_GATE.largeStore.chunks.toLocaleString('en')} chunks and beyond` : ''} → inject nothing ("query gate (words only)"); while it judges, a candidate ranked above the first one that clears \`recall.minSpecificity\`, or repeating at least as much of the question's wording, meets the lower of that bar and ${FITTED_LEXICAL_QUERY_GATE.minSpecificity ?? n('recall.minSpecificity')}, the bar the gate was fitted with (a note below it sharing only its words is a companion and meets the configured bar) ([benchmarks](benchmarks.md#recall-as-memory-grows--npm-run-benchgrowth))`,
    ],
    [
      'hybrid: query gate',
      `the query, when the semantic channel ran with the model the gate was fitted on (\`recall.hybridGate.queryGate\` \`${String(d.get('recall.hybridGate.queryGate'))}\`: bge-small-zh) and its distinctive words are mostly Chinese`,
      query === null
        ? 'off'
        : `a fitted logistic over what the candidates show together (best p, best p among those the rules let through, top cosine z, the margin between the top cosine and the best of a note that is not a copy of the top one (\`rivalCosine\` in \`recall/hybrid-gate.ts\`), best coverage, best rarity, share the rules let through, whether one candidate leads both channels, and whether one the rules let through does, the most of the question's character pairs (and English words beside them) one of the first five repeats, the longest stretch of the question one of them repeats verbatim, the most of the question's weight one sentence of them holds) below ${query}${FITTED_QUERY_GATE?.largeStore ? ` in a store of up to ${FITTED_QUERY_GATE.smallStore} chunks, falling with log(chunks) to ${FITTED_QUERY_GATE.largeStore.threshold} at ${FITTED_QUERY_GATE.largeStore.chunks.toLocaleString('en')} chunks and beyond` : ''} → inject nothing, every candidate removed with the features in the reason${FITTED_QUERY_GATE?.agreementBar !== undefined ? `; ${FITTED_QUERY_GATE.agreementFrom ? `in a store of ${FITTED_QUERY_GATE.agreementFrom.toLocaleString('en')} chunks or more, ` : ''}a question whose candidates include one first in both channels that the rules let through is kept from ${FITTED_QUERY_GATE.agreementBar} on (\`overriddenBy: channels agree\`)` : ''}`,
    ],
    [
      'hybrid: candidate gate',
      'every candidate, when the semantic channel ran (`recall.hybridGate.enabled`)',
      `a fitted logistic p over both channels' evidence (lexical match, coverage, rarity of the rarest matched word, the cosine as a z-score against the query's own background, semantic candidate, 1/semantic rank, 1/lexical rank, top z, the margin over the best note that is not a copy of the top one): a candidate the rule gates above let through stays unless p < ${n('recall.hybridGate.veto')} (\`veto\`); any other — found only by the embedding, or dropped by the rules — needs p ≥ ${n('recall.hybridGate.threshold')} (\`threshold\`). It replaces the rule gates and the two below for those candidates (\`recall/hybrid-gate.ts\`, fitted by \`bench/fit-gate.ts\`: [benchmarks](benchmarks.md#the-hybrid-gate-held-out)). A candidate whose note the question names by its whole title (two characters or more, spaces and punctuation such as 《》 aside, holding one of the question's distinctive words: \`titleNamedBy\` in \`recall/scoring.ts\`) stays whatever its p — 《子不语》又叫做什么？ asks about the note titled 子不语, which answers with 又名 — and \`explain.gate.namedByQuery\` lists it with its p and bar (the console's gate card, \`engram recall\`'s "kept by name" line)`,
    ],
    ['semantic required / min cosine', 'hits without hybrid evidence, when the semantic channel ran', `must be among the semantic channel's candidates (\`recall.requireSemantic\` ${String(d.get('recall.requireSemantic'))}) / cosine ≥ \`recall.minSemantic\` ${n('recall.minSemantic')}`],
    ['judge', 'top candidates', d.get('judge.enabled') ? `on: verdict ≥ \`judge.threshold\` ${n('judge.threshold')}` : 'optional, off by default'],
  ];
  return ['| gate | judges | rule |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** What every request carries per tool profile, measured through the plugin in the simulated host. */
async function toolProfiles(): Promise<string> {
  const { HOST_TOOLS, withFreshHost } = await import('../apps/plugin/scripts/fresh-host.ts');
  const { deepseekCounter, estimateTokens, hostTextTokens } = await import('../apps/plugin/scripts/token-counters.ts');
  const deepseek = await deepseekCounter();
  const rows: string[] = [];
  for (const profile of ['lean', 'full'] as const) {
    // A fresh install with an empty memory, as `npm run bench:tokens` measures it.
    rows.push(
      await withFreshHost(profile, null, async (host, cwd) => {
        const schemas = host.tools!.schemas().filter((s) => !HOST_TOOLS.has(s.name));
        const session = host.createSession({ cwd });
        await session.userTurn('你好', [{ text: '你好' }]);
        const sections = (await host.systemPrompt.assemble(session)).sections.filter((s) => s.name.startsWith('engram') && s.text !== '');
        const texts = [...schemas.map((s) => JSON.stringify({ name: s.name, description: s.description, parameters: s.parameters })), ...sections.map((s) => s.text)];
        const total = (count: (t: string) => number) => texts.reduce((sum, t) => sum + count(t), 0).toLocaleString('en-US');
        const names = schemas.map((s) => `\`${s.name}\``).join(', ');
        return `| \`${profile}\`${profile === 'lean' ? ' (default)' : ''} | ${schemas.length}: ${names} | ${sections.map((s) => `\`${s.name}\``).join(', ')} | **${total(estimateTokens)}** / ${total(hostTextTokens)} / ${total(deepseek)} |`;
      }),
    );
  }
  return ['| profile | tools | sections in a fresh session | fixed cost per request: estimate / host meter / DeepSeek V3 |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

export const SECTIONS: Record<string, { file: string; make: () => string | Promise<string> }> = {
  'config-defaults': { file: 'docs/configuration.md', make: configDefaults },
  'gate-table': { file: 'docs/architecture.md', make: gateTable },
  'tool-profiles': { file: 'docs/plugin.md', make: toolProfiles },
};

const markers = (name: string) => [`<!-- generated:${name} -->`, `<!-- /generated:${name} -->`] as const;

/** The text between a section's markers, or null when the markdown has no such section. */
export function sectionText(markdown: string, name: string): string | null {
  const [open, close] = markers(name);
  const a = markdown.indexOf(open);
  const b = markdown.indexOf(close);
  if (a < 0 || b < a) return null;
  return markdown.slice(a + open.length, b).replace(/^\n/, '').replace(/\n$/, '');
}

/** The markdown with a section's text replaced (its markers must be there). */
export function withSection(markdown: string, name: string, text: string): string {
  const [open, close] = markers(name);
  const a = markdown.indexOf(open);
  const b = markdown.indexOf(close);
  if (a < 0 || b < a) throw new Error(`no ${open} … ${close} in the file`);
  return `${markdown.slice(0, a + open.length)}\n${text}\n${markdown.slice(b)}`;
}

/** Prose that names a setting in backticks followed by a number: `recall.minCoverage` 0.3. */
export function inlineSettingNumbers(markdown: string): { path: string; value: number; line: number }[] {
  const found: { path: string; value: number; line: number }[] = [];
  markdown.split('\n').forEach((text, i) => {
    for (const m of text.matchAll(/`([a-z][A-Za-z]*(?:\.[A-Za-z]+)+)`\s+(-?\d[\d,]*(?:\.\d+)?)(?![\d.]*\s*[%×x])/g)) {
      found.push({ path: m[1]!, value: Number(m[2]!.replaceAll(',', '')), line: i + 1 });
    }
  });
  return found;
}

/** Docs whose inline setting numbers are checked. */
export const PROSE_FILES = ['README.md', 'docs/architecture.md', 'docs/api.md', 'docs/plugin.md', 'docs/structure.md', 'docs/benchmarks.md', 'docs/configuration.md'];

/** Every difference between the docs and the code, as one line each (empty: the docs agree). */
export async function docsDifferences(read: (file: string) => string = (f) => readFileSync(join(repoRoot, f), 'utf8')): Promise<string[]> {
  const out: string[] = [];
  for (const [name, { file, make }] of Object.entries(SECTIONS)) {
    const current = sectionText(read(file), name);
    if (current === null) out.push(`${file}: the generated section "${name}" is missing`);
    else if (current !== (await make())) out.push(`${file}: the generated section "${name}" differs from the code`);
  }
  const leaves = defaultLeaves();
  for (const file of PROSE_FILES) {
    let text: string;
    try {
      text = read(file);
    } catch {
      continue;
    }
    for (const { path, value, line } of inlineSettingNumbers(text)) {
      const want = leaves.get(path);
      if (typeof want === 'number' && want !== value) out.push(`${file}:${line}: \`${path}\` ${value}, but its default is ${want}`);
    }
  }
  return out;
}

export async function writeSections(): Promise<string[]> {
  const written: string[] = [];
  for (const [name, { file, make }] of Object.entries(SECTIONS)) {
    const path = join(repoRoot, file);
    const before = readFileSync(path, 'utf8');
    const after = withSection(before, name, await make());
    if (after !== before) {
      writeFileSync(path, after);
      written.push(`${file} (${name})`);
    }
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--write')) {
    const written = await writeSections();
    console.log(written.length ? `rewrote ${written.join(', ')}` : 'every generated section is current');
  } else {
    const diffs = await docsDifferences();
    for (const d of diffs) console.log(d);
    if (diffs.length) console.log('run: node --import tsx scripts/docs-sections.ts --write');
    process.exitCode = diffs.length ? 1 : 0;
  }
}
