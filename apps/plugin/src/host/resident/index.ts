// resident/: what sits in the system prompt unchanged from one request to the next — the resident
// memories with the tool guidance, and the diary-writing guideline (the whole text, or the lean
// profile's one paragraph) — and, in message mode, when the resident block is added again.
export { GUIDELINE_ORDER, GUIDELINE_SECTION_NAME, RESIDENT_SECTION_NAME, ResidentChannel } from './channel.ts';
export { fullGuideline, guidelineSection, LEAN_GUIDELINE } from './guideline.ts';
