import { NodeError, defineNode } from '@drover/sdk';

/** `test.fail`: always fails with `parameters.code` (default `E.TEST.FAILED`) and `parameters.message`. */
export const fail = defineNode<Record<string, unknown>, Record<string, never>>((ctx) => {
  const code = ctx.parameters['code'];
  const message = ctx.parameters['message'];
  throw new NodeError(
    typeof code === 'string' && code !== '' ? code : 'E.TEST.FAILED',
    typeof message === 'string' && message !== '' ? message : 'test.fail always fails',
    { step: 'fail', details: { nodeId: ctx.nodeId, attempt: ctx.attempt } },
  );
});
