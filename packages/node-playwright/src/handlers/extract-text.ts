import { defineNode, type ResourceRef } from '@drover/sdk';
import { Deadline } from '../deadline.ts';
import { requirePage } from '../page-ref.ts';
import { ParameterReader } from '../parameter-reader.ts';
import { runStep } from '../run-step.ts';
import { waitForElement } from '../wait-for-element.ts';

/** Results of `playwright.extract_text`. */
export type ExtractTextResults = { text: string; page: ResourceRef; done: true };

/** `playwright.extract_text`: the rendered text (`innerText`) of the first element matching `selector`. */
export const extractText = defineNode<Record<string, unknown>, ExtractTextResults>(async (ctx) => {
  const params = new ParameterReader(ctx.parameters);
  const selector = params.requiredString('selector');
  const trim = params.flag('trim', true);
  const deadline = new Deadline(params.timeoutMs(5_000));
  const step = `extract_text ${selector}`;
  const { page, ref } = requirePage(ctx, step);

  ctx.log.info(step, { timeoutMs: deadline.timeoutMs });
  const element = await waitForElement(ctx.signal, page, selector, {
    state: 'attached',
    timeoutMs: deadline.timeoutMs,
    step,
  });
  const raw = await runStep(ctx.signal, step, element.innerText({ timeout: deadline.forAction() }));
  const text = trim ? raw.trim() : raw;
  ctx.log.debug('text extracted', { length: text.length });
  return { text, page: ref, done: true };
});
