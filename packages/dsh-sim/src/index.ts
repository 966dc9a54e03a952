// @engram/dsh-sim: a simulator of the DSH plugin host, faithful to /work/shared/dsh-contract.md,
// for testing host-half plugins without the host.
export { createHost, SimHost, HOST_VARIANTS, type HostOptions, type PluginModule, type SessionInit } from './host.ts';
export { Context, type ListenOptions } from './context.ts';
export { EventBus, type Listener } from './events.ts';
export { SimSession, SNAPSHOT_PLUGIN, type Agent, type CompactOptions, type CompactResult, type TurnOptions, type TurnResult } from './session.ts';
export { InboxViolationError, WorkingInbox } from './inbox.ts';
export { HostContractError, textOf } from './messages.ts';
export { interpolate, renderPrompt, renderContextSections, joinContextSections, SNAPSHOT_PREAMBLE } from './prompt-render.ts';
export { prefixStability, prefixStableShare, systemPromptsIdentical, type PrefixStability, type PrefixBreak } from './requests.ts';
export type { AssembleContext, SectionInput, ContextInput } from './services/system-prompt.ts';
export type { PreToolDecision, ToolDefinition, ToolExec, ToolOutcome } from './services/tools.ts';
export type { RouteDefinition } from './services/http.ts';
export type { LlmCall, LlmReply, LlmRequest, LlmResponder } from './services/llm.ts';
export type { Logger, LoggerFactory } from './logger.ts';
export type * from './types.ts';
export { loadClientBundle, injectedNames, SlotTable, HOST_SLOTS, ClientLoadError, type LoadedClient, type ClientLoadOptions, type SlotKind, type SlotOptions, type SlotEntry } from './client.ts';
export { schemaViolations, valueViolations, losslessJsonProblem } from './json-schema.ts';
export { contentText } from './services/tools.ts';
