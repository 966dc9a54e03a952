// The host's agent loop for one user turn, in the contract's event order:
//
//   turn/start → agent/inbox/spliced → [assemble waterfall] → agent/pre-step (step 1, messages =
//   [the user's message]) → step/start → user/message (kind user) → user/message for the other
//   messages of the decision → user/message snapshot (only when its text changed) → request/header
//   and request/context (only when changed) → assistant/chunk… → assistant/message → per call:
//   tool/call → (todo/write) → tool/result → step/end → next step while tools owe a request or
//   inbox input is pending → agent/turn-stopping → turn/end
//
// So at step 1's pre-step the new user message is in payload.messages but not yet in the log.
import type { EventBus } from './events.ts';
import { HostContractError } from './messages.ts';
import { joinContextSections, renderContextSections, renderPrompt } from './prompt-render.ts';
import { SNAPSHOT_PLUGIN, type SimSession, type TurnOptions, type TurnResult } from './session.ts';
import type { SystemPromptService } from './services/system-prompt.ts';
import type { ToolsService } from './services/tools.ts';
import type {
  ContentBlock,
  EventEnvelope,
  PreStepDecision,
  PromptAssembly,
  RecordedRequest,
  ScriptEntry,
  ScriptStep,
  StreamChunk,
  UserMessage,
} from './types.ts';

export type AssembleAt = 'before-pre-step' | 'after-user-message';

export interface TurnDeps {
  bus: EventBus;
  systemPrompt: SystemPromptService;
  tools: ToolsService | undefined;
  provider: string;
  model: string;
  assembleAt: AssembleAt;
  fallbackReply: string;
  maxStepsPerTurn: number;
  rejectOnTurnError: boolean;
  hostRequests: RecordedRequest[];
  nextId(prefix: string): string;
  recordError(where: string, plugin: string, error: unknown): void;
}

/** Recorded when every context went empty after a snapshot was visible, so the stale one stops counting. */
const CLEARED_SNAPSHOT = 'Current runtime context is empty. This snapshot supersedes earlier runtime-context snapshots.';

function checkDecision(value: unknown): PreStepDecision {
  const decision = value as PreStepDecision | undefined;
  if (decision?.kind === 'reject') return decision;
  if (decision?.kind === 'enter' && Array.isArray(decision.messages)) return decision;
  throw new HostContractError(
    `agent/pre-step returned ${JSON.stringify(value)}: a listener must return { kind: 'reject' } or { kind: 'enter', messages } (usually the value of \`await next()\`)`,
  );
}

function checkStep(value: unknown): ScriptStep {
  if (value === null || typeof value !== 'object') throw new TypeError(`script step must be an object, got ${String(value)}`);
  return value as ScriptStep;
}

/** The model's content blocks and the stream chunks the host logs as assistant/chunk. */
function modelOutput(step: ScriptStep, newCallId: () => string): { content: ContentBlock[]; chunks: StreamChunk[] } {
  const content: ContentBlock[] = [];
  const chunks: StreamChunk[] = [];
  let index = 0;
  if (step.reasoning) {
    const block = { type: 'reasoning', text: step.reasoning };
    chunks.push({ type: 'block-start', index, blockType: 'reasoning' }, { type: 'reasoning-delta', index, text: step.reasoning }, { type: 'block-end', index, block });
    content.push(block);
    index++;
  }
  if (step.text) {
    const cut = Math.ceil(step.text.length / 2);
    chunks.push({ type: 'block-start', index, blockType: 'text' }, { type: 'text-delta', index, text: step.text.slice(0, cut) });
    if (cut < step.text.length) chunks.push({ type: 'text-delta', index, text: step.text.slice(cut) });
    const block = { type: 'text' as const, text: step.text };
    chunks.push({ type: 'block-end', index, block });
    content.push(block);
    index++;
  }
  for (const call of step.toolCalls ?? []) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    const block = { type: 'tool-call' as const, callId: call.callId ?? newCallId(), name: call.name, arguments: args };
    chunks.push(
      { type: 'block-start', index, blockType: 'tool-call' },
      { type: 'tool-call-delta', index, callId: block.callId, name: block.name, arguments: args },
      { type: 'block-end', index, block },
    );
    content.push(block);
    index++;
  }
  const text = step.text ?? '';
  chunks.push({ type: 'usage', usage: step.usage ?? { inputTokens: 0, outputTokens: Math.ceil(text.length / 2) } });
  chunks.push({ type: 'finish', reason: { kind: (step.toolCalls?.length ?? 0) > 0 ? 'tool-calls' : 'stop' } });
  return { content, chunks };
}

export async function runUserTurn(deps: TurnDeps, session: SimSession, text: string, script: ScriptEntry[], options: TurnOptions): Promise<TurnResult> {
  if (session.running) throw new Error(`session ${session.id} is already running a turn`);
  session.running = true;
  const firstSeq = session.recordedEvents().length;
  const turn = ++session.turnCount;
  const controller = new AbortController();
  const agent = session.agent;
  const inbox = session.workingInbox;
  const turnRequests: RecordedRequest[] = [];
  let status: TurnResult['status'] = 'completed';
  let failure: unknown;
  let step = 0;
  let stepsSpent = 0;
  let stepOpen = false;
  let scriptCursor = 0;

  const userMessage = session.normaliseMessage(
    { role: 'user', content: [{ type: 'text', text }], source: { kind: 'user', ...(options.rpcId ? { rpcId: options.rpcId } : {}) } },
    'user turn',
  );
  const assemble = () => deps.systemPrompt.assemble({ agent, signal: controller.signal });

  try {
    // A tool result whose content is not a list of blocks stays in the session's history, and the
    // real host fails every later turn on it before a request is sent (content.some is not a function).
    if (session.brokenBy !== undefined) throw new TypeError(`content.some is not a function (a tool result of this session is ${JSON.stringify(session.brokenBy).slice(0, 60)}, not content blocks)`);
    session.appendEvent('turn/start', { turn });
    // The person's message is claimed out of the inbox's next-turn list.
    session.appendEvent('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] });
    let pending: UserMessage[] = [userMessage, ...(inbox?.claimAll() ?? [])];

    for (;;) {
      step++;
      if (step > deps.maxStepsPerTurn) {
        throw new HostContractError(`turn ${turn} exceeded ${deps.maxStepsPerTurn} steps: something keeps feeding the inbox (every inbox item is a new user input)`);
      }
      let assembly: PromptAssembly | undefined = deps.assembleAt === 'before-pre-step' ? await assemble() : undefined;

      const payloadMessages = Object.freeze([...pending]);
      const decision = checkDecision(
        await deps.bus.waterfall('agent/pre-step', [{ agent, messages: payloadMessages, turn, step, signal: controller.signal }], () => ({
          kind: 'enter',
          messages: payloadMessages,
        })),
      );
      pending = [];
      if (decision.kind === 'reject') {
        if (step === 1) status = 'blocked';
        break;
      }
      const entered = decision.messages.map((m, i) => session.normaliseMessage(m, `agent/pre-step decision.messages[${i}]`));
      if (step === 1 && entered.length === 0) {
        // A first claim rewritten empty closes the turn without spending a step.
        status = 'blocked';
        break;
      }

      session.appendEvent('step/start', { turn, step });
      stepOpen = true;
      stepsSpent++;
      for (const message of entered) session.recordUserMessage(message);
      assembly ??= await assemble();

      const system = renderPrompt(assembly);
      const sections = renderContextSections(assembly);
      const snapshot = joinContextSections(sections);
      const visible = session.visibleSnapshotText();
      if (snapshot !== '' ? snapshot !== visible : visible !== undefined && visible !== CLEARED_SNAPSHOT) {
        session.recordUserMessage(
          session.normaliseMessage(
            {
              role: 'user',
              content: [{ type: 'text', text: snapshot !== '' ? snapshot : CLEARED_SNAPSHOT }],
              source: { kind: 'plugin', plugin: SNAPSHOT_PLUGIN, form: 'snapshot', sections },
            },
            'snapshot',
          ),
        );
      }
      if (!Array.isArray(assembly.tools)) throw new TypeError('assembly.tools must be an array after system-prompt/assemble');
      const toolSchemas = assembly.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
      session.recordRequestRecords({ config: { provider: deps.provider, model: deps.model }, system, tools: toolSchemas }, { provider: deps.provider, model: deps.model });

      const request: RecordedRequest = {
        sessionId: session.id,
        origin: session.header.origin,
        turn,
        step,
        provider: deps.provider,
        model: deps.model,
        system,
        messages: session.requestMessages(),
        tools: toolSchemas.map((t) => t.name),
      };
      session.requests.push(request);
      deps.hostRequests.push(request);
      turnRequests.push(request);

      const entry = script[scriptCursor++];
      const modelStep = checkStep(entry === undefined ? { text: deps.fallbackReply } : typeof entry === 'function' ? entry(request) : entry);
      const { content, chunks } = modelOutput(modelStep, () => deps.nextId('call'));
      for (const chunk of chunks) session.appendEvent('assistant/chunk', { turn, step, chunk });
      const usage = chunks.find((c) => c.type === 'usage');
      session.appendEvent('assistant/message', {
        turn,
        step,
        message: { id: deps.nextId('msg'), role: 'assistant', content },
        ...(usage?.type === 'usage' ? { usage: usage.usage } : {}),
      });

      const calls = content.filter((b): b is Extract<ContentBlock, { type: 'tool-call' }> => b.type === 'tool-call');
      for (const call of calls) {
        session.appendEvent('tool/call', { turn, step, callId: call.callId, name: call.name, arguments: call.arguments });
        const outcome = deps.tools
          ? await deps.tools.call(call.name, call.arguments, { callId: call.callId, agent, signal: controller.signal })
          : { text: `Error: unknown tool "${call.name}"`, content: [{ type: 'text', text: `Error: unknown tool "${call.name}"` }], error: { name: call.name, code: 'unknown-tool', message: 'no tools service' } };
        session.appendEvent('tool/result', {
          turn,
          step,
          message: {
            id: deps.nextId('msg'),
            role: 'tool',
            callId: call.callId,
            name: call.name,
            content: outcome.brokenContent !== undefined ? outcome.brokenContent : outcome.content,
          },
          ...(outcome.error ? { error: { name: outcome.error.name, code: outcome.error.code } } : {}),
        });
        if (outcome.brokenContent !== undefined) {
          session.brokenBy = outcome.brokenContent;
          throw new TypeError(`This turn failed: content.some is not a function (tool "${call.name}": output.render returned ${typeof outcome.brokenContent}, not content blocks)`);
        }
      }
      session.appendEvent('step/end', { turn, step });
      stepOpen = false;

      if (calls.length === 0 && (inbox?.length ?? 0) === 0) {
        await deps.bus.serial('agent/turn-stopping', [{ agent, turn, signal: controller.signal }]);
      }
      if (calls.length === 0 && (inbox?.length ?? 0) === 0) break;
      // Tools owe another request, or inbox input is pending: it is claimed as the next step's input.
      pending = inbox?.claimAll() ?? [];
    }
  } catch (error) {
    status = 'error';
    failure = error;
    deps.recordError('turn', '<host>', error);
    if (stepOpen) session.appendEvent('step/end', { turn, step });
  } finally {
    session.appendEvent('turn/end', {
      turn,
      reason: status === 'error' ? { kind: 'error', message: (failure as Error)?.message ?? String(failure) } : { kind: status },
    });
    session.running = false;
  }

  const events = session.recordedEvents().slice(firstSeq) as EventEnvelope[];
  const result: TurnResult = { turn, status, steps: stepsSpent, requests: turnRequests, events, ...(failure !== undefined ? { error: failure } : {}) };
  if (status === 'error' && deps.rejectOnTurnError) throw failure;
  return result;
}
