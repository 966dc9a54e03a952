// crosssession/: what one session learns of the others and keeps for itself — the brief, the wall
// and the private notebook tools (always for the calling session only), and the notebook's rule
// books as a system-prompt section that stays byte-identical while the books do not change.
export { NOTEBOOK_SECTION_NAME, registerNotebookSection } from './prompt.ts';
export { CROSS_SESSION_TOOL_NAMES, createCrossSessionTools, crossSessionOf, registerCrossSessionTools, type WorkspaceOf } from './tools.ts';
