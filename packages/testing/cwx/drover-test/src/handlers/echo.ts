import { defineNode } from '@drover/sdk';

/** `test.echo`: returns `parameters.value` as `results.value`. */
export const echo = defineNode<Record<string, unknown>, { value: unknown; done: true }>((ctx) => {
  ctx.log.debug('echo', { type: typeof ctx.parameters['value'] });
  return { value: ctx.parameters['value'], done: true };
});
