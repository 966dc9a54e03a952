// The prompt budget, per tool profile, through the simulated host: what every request carries
// (each tool schema, each system-prompt section Engram adds, the total) counted three ways
// (token-counters.ts), and what recall actually injects over a replayed 30-turn coding session with
// real memories on disk. Run: npm run bench:tokens   (writes nothing; prints markdown tables)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest, RequestMessage } from '@engram/dsh-sim';
import { PLUGIN_ID } from '../src/host/sessions/view.ts';
import type { ToolProfile } from '../src/host/tools/profiles.ts';
import { CODING_MEMORIES, CODING_SESSION } from './coding-session.ts';
import { HOST_TOOLS, withFreshHost } from './fresh-host.ts';
import { deepseekCounter, estimateTokens, hostSystemTokens, hostTextTokens, hostToolsTokens, type Counter } from './token-counters.ts';
import { SAMPLES } from './token-samples.ts';

const PROFILES: ToolProfile[] = ['lean', 'full'];

interface Row {
  what: string;
  estimate: number;
  host: number;
  deepseek: number;
}

const count = (what: string, text: string, real: Counter): Row => ({ what, estimate: estimateTokens(text), host: hostTextTokens(text), deepseek: real(text) });
const sum = (rows: Row[], what: string): Row => ({
  what,
  estimate: rows.reduce((n, r) => n + r.estimate, 0),
  host: rows.reduce((n, r) => n + r.host, 0),
  deepseek: rows.reduce((n, r) => n + r.deepseek, 0),
});

function writeCorpus(diaryDir: string): void {
  for (const m of CODING_MEMORIES) writeFileSync(join(diaryDir, `${m.date}-${m.title}.txt`), m.text);
}

/** Fixed cost of a fresh session in an empty memory: tool schemas and Engram's sections. */
async function fixedCost(profile: ToolProfile, real: Counter) {
  return withFreshHost(profile, null, async (host, cwd) => {
    const schemas = host.tools!.schemas().filter((s) => !HOST_TOOLS.has(s.name));
    const tools = schemas.map((s) => count(s.name, JSON.stringify({ name: s.name, description: s.description, parameters: s.parameters }), real));
    const session = host.createSession({ cwd });
    const turn = await session.userTurn('你好', [{ text: '你好' }]);
    const assembly = await host.systemPrompt.assemble(session);
    const sections = assembly.sections.filter((s) => s.name.startsWith('engram') && s.text !== '').map((s) => count(s.name, s.text, real));
    const system = turn.requests[0]!.system;
    // What the host's own meter says Engram adds: the request with Engram minus the host's own parts.
    const hostOwn = { tools: hostToolsTokens(schemas), system: sections.reduce((n, s) => n + s.host, 0) };
    return { tools, sections, hostOwn, systemChars: system.length, hostSystem: hostSystemTokens(system) };
  });
}

const own = (m: RequestMessage) => (m.source as { kind?: string; plugin?: string } | undefined)?.kind === 'plugin' && (m.source as { plugin?: string }).plugin === PLUGIN_ID;

/** The replayed coding session: recall tokens injected per user turn, and whether the system prompt moved. */
async function replay(profile: ToolProfile, real: Counter) {
  return withFreshHost(profile, writeCorpus, async (host, cwd) => {
    const session = host.createSession({ cwd });
    const perTurn: { estimate: number; deepseek: number; host: number; titles: string[]; alreadyShown: boolean }[] = [];
    const systems = new Set<string>();
    let seen = 0;
    for (const step of CODING_SESSION) {
      const logsBefore = host.logs.length;
      const turn = await session.userTurn(step.user, [{ text: step.reply }]);
      // The recall found memories, but every one of them is already in the conversation.
      const alreadyShown = host.logs.slice(logsBefore).some((l) => /already in the history, nothing injected/.test(l.message));
      for (const r of turn.requests as RecordedRequest[]) systems.add(r.system);
      const last = turn.requests.at(-1)!;
      const injected = last.messages.filter(own);
      const added = injected.slice(seen);
      seen = injected.length;
      const text = added.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
      const titles = added.flatMap((m) => ((m.source as { items?: { title: string }[] } | undefined)?.items ?? []).map((item) => item.title));
      perTurn.push({ estimate: estimateTokens(text), deepseek: real(text), host: hostTextTokens(text), titles, alreadyShown });
    }
    await host.settle();
    return { perTurn, systemChanges: systems.size - 1 };
  });
}

const real = await deepseekCounter();
const table = (head: string, rows: Row[]) =>
  [`| ${head} | estimate | host (chars/4) | DeepSeek V3 |`, '|---|---:|---:|---:|', ...rows.map((r) => `| ${r.what} | ${r.estimate} | ${r.host} | ${r.deepseek} |`)].join('\n');

const summary: string[] = [];
/** The lean profile's fixed cost, measured first in this run: the other profile is given as a multiple of it. */
let baseline: number | undefined;
for (const profile of PROFILES) {
  const fixed = await fixedCost(profile, real);
  const tools = sum(fixed.tools, `**tools (${fixed.tools.length})**`);
  const sections = sum(fixed.sections, `**sections (${fixed.sections.length})**`);
  const total = sum([tools, sections], '**fixed cost per request**');
  console.log(`\n### Profile \`${profile}\`\n`);
  console.log(table('tool schema', [...fixed.tools.sort((a, b) => b.estimate - a.estimate), tools]));
  console.log('');
  console.log(table('system-prompt section', [...fixed.sections, sections]));
  console.log('');
  console.log(table('total', [total]));
  console.log(`\nThe host's meter for the same request: tool list ${fixed.hostOwn.tools} (all of Engram's schemas serialised once, + 4), Engram's sections ${fixed.hostOwn.system}.`);

  const { perTurn, systemChanges } = await replay(profile, real);
  const est = perTurn.map((t) => t.estimate);
  const ds = perTurn.map((t) => t.deepseek);
  const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  const none = perTurn.filter((t) => t.estimate === 0).length;
  const injectedOn = perTurn.flatMap((t, i) => (t.estimate > 0 ? [i + 1] : []));
  const shownOn = perTurn.flatMap((t, i) => (t.estimate === 0 && t.alreadyShown ? [i + 1] : []));
  console.log(
    `\nReplayed coding session (${perTurn.length} user turns, ${CODING_MEMORIES.length} memories): injected per user turn — mean ${mean(est)} / max ${Math.max(...est)} (estimate), ` +
      `mean ${mean(ds)} / max ${Math.max(...ds)} (DeepSeek V3); ${none} of ${perTurn.length} turns injected nothing (injected on turns ${injectedOn.join(', ')}; found only memories already shown on turns ${shownOn.join(', ') || 'none'}); system-prompt changes: ${systemChanges}.`,
  );
  baseline ??= total.estimate;
  if (profile === PROFILES[0]) {
    console.log('\n| turn | the person said | memories injected |\n|---:|---|---|');
    perTurn.forEach((t, i) => t.titles.length > 0 && console.log(`| ${i + 1} | ${CODING_SESSION[i]!.user} | ${t.titles.join('; ')} |`));
  }
  summary.push(
    `| ${profile} | ${(total.estimate / baseline).toFixed(1)}× | ${fixed.tools.length} | ${tools.estimate} | ${sections.estimate} | **${total.estimate}** | ${total.host} | ${total.deepseek} | ${mean(est)} / ${Math.max(...est)} | ${none}/${perTurn.length} | ${systemChanges} |`,
  );
}
console.log('\n### Summary\n');
console.log('| profile | × lean | tools | tool tokens | section tokens | fixed cost (estimate) | fixed (host) | fixed (DeepSeek V3) | recall per turn mean / max (estimate) | turns with no injection | system-prompt changes |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const line of summary) console.log(line);

// How far each counter is from DeepSeek V3's own count, on Chinese, English, code and schemas.
console.log('\n### The counters against DeepSeek V3\n');
console.log('| kind | sample | characters | DeepSeek V3 | estimate | estimate ÷ DeepSeek | host ÷ DeepSeek |');
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const [kind, samples] of Object.entries(SAMPLES)) {
  for (const [name, text] of Object.entries(samples)) {
    const actual = real(text);
    const estimate = estimateTokens(text);
    console.log(`| ${kind} | ${name} | ${text.length} | ${actual} | ${estimate} | ${(estimate / actual).toFixed(2)} | ${(hostTextTokens(text) / actual).toFixed(2)} |`);
  }
}
// The estimate's known blind spot: long random identifiers (integrity hashes) are one "word" to it.
{
  const { readFileSync } = await import('node:fs');
  const lock = readFileSync(join(import.meta.dirname, '../../../package-lock.json'), 'utf8').slice(0, 20_000);
  const actual = real(lock);
  console.log(`\nBlind spot — the first 20,000 characters of package-lock.json (sha512 hashes): DeepSeek V3 ${actual}, estimate ${estimateTokens(lock)} (${(estimateTokens(lock) / actual).toFixed(2)}×).`);
}
