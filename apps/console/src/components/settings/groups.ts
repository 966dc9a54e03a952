// The Settings page by what a person wants to do, not by engine module: where memories come from,
// how much the agent is shown, which model finds meaning — and 高级 with every other option, in its
// engine section and under its raw config path. Pure data over spec.ts, so a test can prove that
// every control is shown exactly once and that raw paths appear only under 高级.
import type { SettingsKey } from '../../client/messages-settings.ts';
import { ALL_FIELDS, SECTIONS, type FieldSpec, type Pair, type SectionSpec } from './spec.ts';

export type GroupId = 'sources' | 'recall' | 'model' | 'advanced';

export interface GroupSpec {
  id: GroupId;
  title: SettingsKey;
  /** One line: what this group is for, in the reader's words. */
  explain: SettingsKey;
  /** The controls shown in the group, in order (advanced: every control no other group shows). */
  fields: FieldSpec[];
  /** Raw config paths are shown next to the labels only where people go to tune the engine. */
  showPaths: boolean;
}

/** The person-facing groups: config paths, in the order shown. */
export const GROUP_PATHS: Record<Exclude<GroupId, 'advanced'>, readonly string[]> = {
  sources: [
    'diaryDir',
    'diary.folder',
    'diary.format',
    'runtime.inject',
    'runtime.memories',
    'compaction.enabled',
    'workspace.scoped',
    'crossSession.brief',
    'summaries.enabled',
    'hygiene.enabled',
  ],
  recall: [
    'inject.enabled',
    'recall.kMin',
    'recall.kBase',
    'recall.kMax',
    'recall.maxChars',
    'timeDecay.enabled',
    'recall.timeChannel',
    'freeze.onUserMessage',
    'aliases',
  ],
  model: ['embedding.provider', 'embedding.baseUrl', 'embedding.model', 'embedding.apiKey', 'embedding.modelDir'],
};

/**
 * Out of its engine section a switch needs to say what it does (the compaction section's 「总开关」
 * means nothing among the memory sources): the name a control has in a person-facing group.
 */
const GROUP_LABELS: Record<string, Pair> = {
  'runtime.inject': ['每一轮都带上常驻记忆', 'Send the resident memories on every turn'],
  'compaction.enabled': ['会话压缩时留下被压掉的内容', 'Keep what a compaction folds away'],
  'crossSession.brief': ['告诉 agent 其他会话新写的记忆', 'Tell the agent what other sessions wrote'],
  'summaries.enabled': ['没写要点的记忆自动补一句', 'Add a summary to memories without one'],
  'hygiene.enabled': ['写入前检查碎片和重复', 'Check new memories for fragments and duplicates'],
  'inject.enabled': ['把找到的记忆给 agent', 'Give the memories found to the agent'],
  'freeze.onUserMessage': ['每条新消息都重新找一遍', 'Look again on every new message'],
  'recall.timeChannel': ['按日期找（「昨天」「上周三」）', 'Find by date ("yesterday", "last Wednesday")'],
  'timeDecay.enabled': ['越旧的记忆排得越靠后', 'Older memories rank lower'],
};

const byPath = new Map(ALL_FIELDS.map((f) => [f.path, f]));
const fieldsOf = (paths: readonly string[]): FieldSpec[] =>
  paths.map((p) => {
    const f = byPath.get(p);
    if (!f) throw new Error(`settings group names an unknown path: ${p}`);
    const label = GROUP_LABELS[p];
    return label ? { ...f, label } : f;
  });

const grouped = new Set(Object.values(GROUP_PATHS).flat());

/** The engine sections under 高级, holding only what no person-facing group shows (a section left empty and without a tool is dropped). */
export const ADVANCED_SECTIONS: SectionSpec[] = SECTIONS.map((s) => ({
  ...s,
  fields: s.fields.filter((f) => !grouped.has(f.path)),
  // The embedding test belongs with the model choice now; the write preview stays an advanced tool.
  ...(s.tool === 'test-embedding' ? { tool: undefined } : {}),
})).filter((s) => s.fields.length > 0 || s.tool !== undefined);

export const GROUPS: GroupSpec[] = [
  { id: 'sources', title: 'settings.group.sources', explain: 'settings.group.sources.explain', fields: fieldsOf(GROUP_PATHS.sources), showPaths: false },
  { id: 'recall', title: 'settings.group.recall', explain: 'settings.group.recall.explain', fields: fieldsOf(GROUP_PATHS.recall), showPaths: false },
  { id: 'model', title: 'settings.group.model', explain: 'settings.group.model.explain', fields: fieldsOf(GROUP_PATHS.model), showPaths: false },
  { id: 'advanced', title: 'settings.group.advanced', explain: 'settings.group.advanced.explain', fields: ADVANCED_SECTIONS.flatMap((s) => s.fields), showPaths: true },
];

/** The group that shows a config path (every editable path is in exactly one). */
export function groupOf(path: string): GroupId {
  for (const g of GROUPS) if (g.fields.some((f) => f.path === path)) return g.id;
  return 'advanced';
}
