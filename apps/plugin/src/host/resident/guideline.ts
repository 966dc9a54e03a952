// The diary guideline in the system prompt. The full profile keeps the whole built-in text (≈ 2,850
// characters) resident; the lean profile keeps one paragraph that says what memory is there, the
// order of the read layers, and the few writing rules that matter most, and hands out the whole text
// when the model asks for it (engram_save without arguments). A guideline the user wrote
// (diary.templateText) is theirs: it stays resident whole in both profiles. Pure.
import type { EngramConfig } from '@engram/engine';
import type { ProfileSections } from '../tools/profiles.ts';
import { renderGuideline } from '../core/texts.ts';

export const LEAN_GUIDELINE = [
  '### 长期记忆',
  '你有跨会话的长期记忆。有了结论(决定、约定、坑、偏好)就用 engram_save 记一篇:首行 [HH:MM] 具体的标题(时间取自对话),> 一句结论,正文照原样写全名称和数字,末行 Tag: 具体名称在前;不记密钥。完整守则:engram_save({})。',
].join('\n');

/**
 * The guideline section's text for a profile; '' when the guideline is switched off. Without a tools
 * service the paragraph would point at tools that are not there, and the semantic-block format it
 * leaves out is then the only way to write: the whole text stays resident.
 */
export function guidelineSection(diary: EngramConfig['diary'], builtin: string, sections: ProfileSections, toolsAvailable: boolean): string {
  const text = renderGuideline(diary, builtin);
  if (text === '' || sections.guideline === 'full' || !toolsAvailable) return text;
  return diary.templateText.trim() !== '' ? text : LEAN_GUIDELINE;
}

/** The whole guideline, on demand: the user's text, or the built-in one (even when not resident). */
export function fullGuideline(diary: EngramConfig['diary'] | null | undefined, builtin: string): string {
  const custom = diary?.templateText.trim() ?? '';
  return custom !== '' ? custom : builtin;
}
