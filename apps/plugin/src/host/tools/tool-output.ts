// The plugin's tools at the host boundary. The real host (packages/core/tools/src/index.ts,
// ToolRegistry.register / createSuccessResult) requires `output: { schema, render }`, validates the
// value `execute` returns against `output.schema` after snapshotting it as lossless JSON (an
// `undefined` field, a Date or a class instance fails the call), and uses what `render` returns as
// the tool result's content blocks: a string there breaks the session (`content.some is not a
// function` on this and every later turn). Tool specs in this plugin render text; this is the one
// place that turns them into what the host takes.
import type { ContentBlock, HostLogger, HostToolDefinition, ToolDefinition } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';
import { ToolError } from './memory-tools.ts';

/** A JSON copy without undefined fields (the host's snapshot refuses them) and without prototypes. */
export function plainJson(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value));
}

const blocksOf = (rendered: string | ContentBlock[]): ContentBlock[] => (typeof rendered === 'string' ? [{ type: 'text', text: rendered }] : rendered);

/** The host's shape of one tool spec: plain-JSON value, content blocks from render. */
export function toHostTool(spec: ToolDefinition, log?: HostLogger): HostToolDefinition {
  const render = spec.output?.render;
  return {
    ...spec,
    output: {
      schema: spec.output?.schema ?? {},
      render: (args, value) => blocksOf(render ? render(args, value) : JSON.stringify(value)),
    },
    execute: async (args, exec) => {
      try {
        return plainJson(await spec.execute(args, exec));
      } catch (error) {
        // The model was told of a failure inside the engine in fixed words (memory-tools.ts guarded): its cause goes here.
        if (error instanceof ToolError && error.internal !== undefined) log?.warn(`tool ${spec.name} failed: ${errorText(error.internal)}`);
        throw error;
      }
    },
  };
}
