// UI strings of the Settings page's groups (记忆来源, 召回, 模型, 高级) and its model card.
// Merged into the i18n table (same keys in both languages, the type enforces it).

export const zhSettings = {
  'settings.group.sources': '记忆来源',
  'settings.group.sources.explain': '记忆从哪里来、存在哪里：日记文件夹、每一轮都带上的常驻记忆、会话压缩时留下的内容。',
  'settings.group.recall': '召回',
  'settings.group.recall.explain': '每一轮给 agent 看多少条记忆、多长，什么时候重新找一遍。',
  'settings.group.model': '模型',
  'settings.group.model.explain': '按意思找记忆要用嵌入模型：装在本机，或者接一个在线服务。不装也能按关键词找。',
  'settings.group.advanced': '高级',
  'settings.group.advanced.explain': '其余全部选项，按引擎模块列出，带上它们在配置文件里的名字；一般不用改。',
  'settings.advanced.show': '显示高级设置（{n} 项）',
  'settings.advanced.hide': '收起高级设置',
  'settings.model.size': '下载约 {download}，装好后占用约 {disk}',
  'settings.model.on': '已装好：agent 能按意思找到记忆，不只靠关键词。',
  'settings.model.off': '还没装：现在只按关键词找记忆。装上后，换个说法也能找到。',
  'settings.model.more': '更多选项',
};

export type SettingsKey = keyof typeof zhSettings;

export const enSettings: Record<SettingsKey, string> = {
  'settings.group.sources': 'Memory sources',
  'settings.group.sources.explain': 'Where memories come from and where they are kept: the diary folder, the resident memories sent on every turn, what a compacted session leaves behind.',
  'settings.group.recall': 'Recall',
  'settings.group.recall.explain': 'How many memories the agent is shown on a turn, how long they may be, and when they are looked up again.',
  'settings.group.model': 'Model',
  'settings.group.model.explain': 'Finding memories by meaning needs an embedding model: installed on this computer, or an online service. Without one, memories are found by keywords.',
  'settings.group.advanced': 'Advanced',
  'settings.group.advanced.explain': 'Every other option, by engine module, with its name in the config file; rarely needs changing.',
  'settings.advanced.show': 'Show advanced settings ({n})',
  'settings.advanced.hide': 'Hide advanced settings',
  'settings.model.size': 'About {download} to download, about {disk} on disk once installed',
  'settings.model.on': 'Installed: the agent finds memories by meaning, not only by keywords.',
  'settings.model.off': 'Not installed: memories are found by keywords only. With it, other wordings find them too.',
  'settings.model.more': 'More options',
};

/** Bytes as a person reads them (16.3 MB). */
export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} KB`;
  return `${n} B`;
}
