// Settings truth: the console's "needs restart" flag (apps/console/src/components/settings/spec.ts)
// says what a change does on a running plugin. Each setting the plugin reads at start or per request
// is changed on a running plugin through the engine's saveSettings, the next request is looked at,
// and the flag must say "restart" exactly when the change did not reach it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_FIELDS } from '../../console/src/components/settings/spec.ts';
import { loadPlugin } from './helpers.ts';

type Loaded = Awaited<ReturnType<typeof loadPlugin>>;

const flag = (path: string): boolean => {
  const field = ALL_FIELDS.find((f) => f.path === path);
  assert.ok(field, `${path} has a control in the settings`);
  return field.restart === true;
};

async function assembled(loaded: Loaded) {
  const session = loaded.host.createSession({ cwd: '/work/app' });
  await session.userTurn('你好', [{ text: '好' }]);
  return loaded.host.systemPrompt.assemble(session);
}

/** [path, the change, whether the running plugin shows it] */
const PROBES: [string, Record<string, unknown>, (loaded: Loaded) => Promise<boolean>, Record<string, unknown>?][] = [
  [
    'diary.templateText',
    { diary: { templateText: '自定义守则:每条记忆都写清楚来源。' } },
    async (l) => (await assembled(l)).sections.some((s) => s.text.includes('自定义守则')),
  ],
  [
    'runtime.order',
    { runtime: { order: -5000 } },
    async (l) => {
      const names = (await assembled(l)).sections.map((s) => s.name);
      return names.indexOf('engram:resident') < names.indexOf('harness:identity');
    },
    { runtime: { memories: [{ text: '回答用简体中文', critical: true }] } },
  ],
  [
    'inject.order',
    { inject: { order: -5000 } },
    async (l) => {
      const names = (await assembled(l)).contexts.map((c) => c.name);
      const recall = names.findIndex((n) => n.startsWith('engram'));
      return recall >= 0 && recall < names.indexOf('working-directory');
    },
    { inject: { mode: 'context' } },
  ],
  ['tools.profile', { tools: { profile: 'lean' } }, async (l) => l.host.tools!.has('engram')],
  ['tools.disabled', { tools: { disabled: ['engram_wall'] } }, async (l) => !l.host.tools!.has('engram_wall')],
];

for (const [path, change, applied, base] of PROBES) {
  test(`${path}: the "needs restart" flag is true exactly when a change does not reach the running plugin`, async (t) => {
    const loaded = await loadPlugin(t, base ? { config: base } : {});
    assert.equal(await applied(loaded), false, 'not in effect before the change');
    const saved = await loaded.engine.saveSettings(change);
    assert.equal(saved.ok, true, JSON.stringify(saved));
    const live = await applied(loaded);
    assert.equal(flag(path), !live, live ? `${path} applies live but is marked restart-required` : `${path} applies only at start but is not marked restart-required`);
  });
}

test('every setting marked "needs restart" is one a running plugin was shown not to apply', () => {
  const probedStartOnly = new Set(['runtime.order', 'inject.order', 'tools.profile', 'tools.disabled']);
  const marked = ALL_FIELDS.filter((f) => f.restart === true).map((f) => f.path);
  for (const path of marked) assert.ok(PROBES.some(([p]) => p === path), `${path} is marked restart-required without a probe here`);
  assert.deepEqual(new Set(marked), probedStartOnly);
});
