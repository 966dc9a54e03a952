// tools/: which tools the model is offered (tools.profile lean or full, minus tools.disabled), what
// each one does (the full set's memory tools; the lean set's four layered tools run the same
// executes), and the one place a tool spec becomes what the host takes (plain-JSON value, content
// blocks from render).
export { createTools, TOOL_NAMES, ToolError, type ToolDeps } from './memory-tools.ts';
export { createLeanTools } from './lean-tools.ts';
export { LEAN_TOOL_NAMES, modelTextFor, profileOf, sectionsOf, workspaceTextFor, type ToolProfile } from './profiles.ts';
export { toHostTool } from './tool-output.ts';
