import { defineNode, type ResourceRef } from '@drover/sdk';
import { Deadline } from '../deadline.ts';
import { requirePage } from '../page-ref.ts';
import { ParameterReader } from '../parameter-reader.ts';
import { runStep } from '../run-step.ts';
import { waitForElement } from '../wait-for-element.ts';

/** Results of `playwright.click`: the same page, for the next node. */
export type ClickResults = { page: ResourceRef; done: true };

/** `playwright.click`: wait for the first element matching `selector` to be visible and click it. */
export const click = defineNode<Record<string, unknown>, ClickResults>(async (ctx) => {
  const params = new ParameterReader(ctx.parameters);
  const selector = params.requiredString('selector');
  const deadline = new Deadline(params.timeoutMs(5_000));
  const step = `click ${selector}`;
  const { page, ref } = requirePage(ctx, step);

  ctx.log.info(step, { timeoutMs: deadline.timeoutMs });
  const element = await waitForElement(ctx.signal, page, selector, {
    state: 'visible',
    timeoutMs: deadline.timeoutMs,
    step,
  });
  await runStep(ctx.signal, step, element.click({ timeout: deadline.forAction() }));
  return { page: ref, done: true };
});
