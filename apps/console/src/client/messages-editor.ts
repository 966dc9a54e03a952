// UI strings of the structured memory editor (title, tags, body, preview) and its field checks.
// Merged into the i18n table (same keys in both languages, the type enforces it).

export const zhEditor = {
  'edit.title': '标题',
  'edit.tags': '标签',
  'edit.tags.hint': '用逗号或顿号分隔，例如：聚餐，川菜馆',
  'edit.body': '正文',
  'edit.body.hint': '开头以“>”起头的段落是摘要；“## 小标题”分出小节。',
  'edit.write': '编辑',
  'edit.preview': '预览',
  'edit.preview.empty': '正文还是空的。',
  'edit.shortcut': 'Ctrl/⌘+S 保存，Esc 取消',
  'edit.unchanged': '没有改动',
  'edit.problem.title-empty': '标题不能为空。',
  'edit.problem.title-reads-as-other': '标题不能以“>”或“Tag:”开头，否则会被读成摘要或标签。',
  'edit.problem.body-reads-as-tags': '没有标签时，正文最后一行不能以“Tag:”或“标签：”开头，否则它会被当成标签。在它后面再写一句，或者改掉开头。',
  'edit.problem.body-reads-as-meta': '正文最后一行会被当成元信息行。在它后面再写一句，或者改掉开头。',
  'edit.problem.not-kept': '这样保存后正文会被读成别的样子（最后一行像标签行或元信息行），请改一下那一行。',
};

export type EditorKey = keyof typeof zhEditor;

export const enEditor: Record<EditorKey, string> = {
  'edit.title': 'Title',
  'edit.tags': 'Tags',
  'edit.tags.hint': 'Separated by commas, e.g. dinner, Sichuan restaurant',
  'edit.body': 'Text',
  'edit.body.hint': 'A first paragraph starting with “>” is the summary; “## Heading” starts a section.',
  'edit.write': 'Edit',
  'edit.preview': 'Preview',
  'edit.preview.empty': 'The text is still empty.',
  'edit.shortcut': 'Ctrl/⌘+S saves, Esc cancels',
  'edit.unchanged': 'No changes',
  'edit.problem.title-empty': 'The title cannot be empty.',
  'edit.problem.title-reads-as-other': 'A title cannot start with “>” or “Tag:”: it would be read as the summary or the tags.',
  'edit.problem.body-reads-as-tags': 'Without tags, the last line of the text cannot start with “Tag:”: it would be read as the tags. Add a sentence after it, or change how it starts.',
  'edit.problem.body-reads-as-meta': 'The last line of the text would be read as the metadata line. Add a sentence after it, or change how it starts.',
  'edit.problem.not-kept': 'Saved like this, the text would be read differently (its last line looks like a Tag or Meta line); change that line.',
};
