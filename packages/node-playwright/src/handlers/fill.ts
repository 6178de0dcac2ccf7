import { defineNode, type ResourceRef } from '@drover/sdk';
import { Deadline } from '../deadline.ts';
import { requirePage } from '../page-ref.ts';
import { ParameterReader } from '../parameter-reader.ts';
import { runStep } from '../run-step.ts';
import { waitForElement } from '../wait-for-element.ts';

/** Results of `playwright.fill`: the same page, for the next node. */
export type FillResults = { page: ResourceRef; done: true };

/** `playwright.fill`: wait for an input matching `selector` to be visible and set its value to `value`. */
export const fill = defineNode<Record<string, unknown>, FillResults>(async (ctx) => {
  const params = new ParameterReader(ctx.parameters);
  const selector = params.requiredString('selector');
  const value = params.text('value', '');
  const deadline = new Deadline(params.timeoutMs(5_000));
  const step = `fill ${selector}`;
  const { page, ref } = requirePage(ctx, step);

  // The value itself is not logged: forms carry passwords.
  ctx.log.info(step, { timeoutMs: deadline.timeoutMs, length: value.length });
  const element = await waitForElement(ctx.signal, page, selector, {
    state: 'visible',
    timeoutMs: deadline.timeoutMs,
    step,
  });
  await runStep(ctx.signal, step, element.fill(value, { timeout: deadline.forAction() }));
  return { page: ref, done: true };
});
