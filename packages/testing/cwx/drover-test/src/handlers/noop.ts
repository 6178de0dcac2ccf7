import { defineNode } from '@drover/sdk';

/** `test.noop`: succeeds at once. */
export const noop = defineNode<Record<string, unknown>, { done: true }>(() => ({ done: true }));
