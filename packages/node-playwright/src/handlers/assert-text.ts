import { setTimeout as sleep } from 'node:timers/promises';
import { defineNode, type ResourceRef } from '@drover/sdk';
import { abortable } from '../abortable.ts';
import { Deadline } from '../deadline.ts';
import { playwrightError } from '../errors.ts';
import { requirePage } from '../page-ref.ts';
import { ParameterReader } from '../parameter-reader.ts';
import { runStep } from '../run-step.ts';
import { waitForElement } from '../wait-for-element.ts';

/** How `expected` is compared with the element's text. */
export const TEXT_MODES = ['equals', 'contains', 'matches'] as const;

/** Results of `playwright.assert_text`: the text that matched, and the same page. */
export type AssertTextResults = { text: string; page: ResourceRef; done: true };

const POLL_MS = 100;

/** Whitespace runs become one space and the ends are trimmed, so markup layout does not break assertions. */
const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * `playwright.assert_text`: the rendered text of the first element matching `selector` must equal, contain or
 * match (a regular expression) `expected`. Text is re-read until it matches or `timeoutMs` runs out, so an
 * assertion right after a click sees the page update. Failure is `E.PW.ASSERTION_FAILED` with expected and actual.
 */
export const assertText = defineNode<Record<string, unknown>, AssertTextResults>(async (ctx) => {
  const params = new ParameterReader(ctx.parameters);
  const selector = params.requiredString('selector');
  const expected = params.requiredText('expected');
  const mode = params.choice('mode', TEXT_MODES, 'contains');
  const ignoreCase = params.flag('ignoreCase', false);
  const deadline = new Deadline(params.timeoutMs(5_000));
  const step = `assert_text ${selector}`;

  let test: (actual: string) => boolean;
  if (mode === 'matches') {
    let pattern: RegExp;
    try {
      pattern = new RegExp(expected, ignoreCase ? 'i' : '');
    } catch (cause) {
      throw playwrightError('E.PW.INVALID_PARAMETERS', `"expected" is not a valid regular expression: ${expected}`, {
        step,
        details: { parameter: 'expected', value: expected },
        cause,
      });
    }
    test = (actual) => pattern.test(actual);
  } else {
    const want = ignoreCase ? normalize(expected).toLowerCase() : normalize(expected);
    test = (actual) => {
      const got = ignoreCase ? actual.toLowerCase() : actual;
      return mode === 'equals' ? got === want : got.includes(want);
    };
  }
  const { page, ref } = requirePage(ctx, step);

  ctx.log.info(step, { mode, expected, ignoreCase, timeoutMs: deadline.timeoutMs });
  const element = await waitForElement(ctx.signal, page, selector, {
    state: 'attached',
    timeoutMs: deadline.timeoutMs,
    step,
  });
  for (;;) {
    const actual = normalize(await runStep(ctx.signal, step, element.innerText({ timeout: deadline.forAction() })));
    if (test(actual)) return { text: actual, page: ref, done: true };
    if (deadline.expired()) {
      throw playwrightError(
        'E.PW.ASSERTION_FAILED',
        `text of "${selector}" does not ${mode === 'matches' ? 'match' : mode === 'equals' ? 'equal' : 'contain'} ` +
          `${JSON.stringify(expected)}: got ${JSON.stringify(actual)}`,
        { step, details: { selector, mode, ignoreCase, expected, actual, timeoutMs: deadline.timeoutMs } },
      );
    }
    await abortable(ctx.signal, step, sleep(Math.min(POLL_MS, deadline.remaining())));
  }
});
