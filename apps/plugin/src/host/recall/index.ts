// recall/: what is injected per user turn, and when nothing is. freeze decides whether a step
// recalls at all (first turn, a new message of the person, a phase change of the todo list) or
// reuses the frozen result; channel runs the engine's recall and shows it as a message or a context;
// dedupe drops what the history already shows, so an unchanged recall adds nothing; warm-up loads
// the heavy parts at plugin start, and no step waits for a recall longer than recallWaitMs.
export { RECALL_CONTEXT_NAME, RecallChannel } from './channel.ts';
export { emptyFreezeState, pickTrigger, type Trigger } from './freeze.ts';
export { WarmUp, within } from './warm-up.ts';
