import { recallInput } from '../../shared/validators.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

export const recallRouter = createTRPCRouter({
  /** A recall with its full explanation and the exact text that would be injected; hits carry their `scope`. */
  run: procedure.input(recallInput).query(async ({ ctx, input }) => {
    const { engine } = ctx.runtime;
    const result = await engine.recall(input.query, { k: input.k, only: input.only, workspace: input.workspace });
    return { result, injection: await engine.renderInjection(result) };
  }),
});
