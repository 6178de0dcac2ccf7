import type { Locator, Page } from 'playwright-core';
import { isNodeError } from '@drover/sdk';
import { playwrightError } from './errors.ts';
import { runStep } from './run-step.ts';

/** What to wait for before acting on an element. */
export interface WaitForElementOptions {
  /** `visible` for clicks and typing, `attached` for reading. */
  state: 'attached' | 'visible';
  timeoutMs: number;
  /** Step name reported on failure, e.g. `click #submit`. */
  step: string;
}

/**
 * Wait until the first element matching `selector` reaches `state` and return its locator (the first match is
 * used when several elements match). Never appearing within the timeout is `E.PW.SELECTOR_NOT_FOUND`.
 */
export async function waitForElement(
  signal: AbortSignal,
  page: Page,
  selector: string,
  options: WaitForElementOptions,
): Promise<Locator> {
  const locator = page.locator(selector).first();
  try {
    await runStep(signal, options.step, locator.waitFor({ state: options.state, timeout: options.timeoutMs }));
  } catch (err) {
    const timedOut = isNodeError(err) && (err.cause as { name?: unknown } | undefined)?.name === 'TimeoutError';
    if (!timedOut) throw err;
    const what = options.state === 'visible' ? 'visible element' : 'element';
    throw playwrightError(
      'E.PW.SELECTOR_NOT_FOUND',
      `no ${what} matched selector "${selector}" within ${options.timeoutMs} ms`,
      {
        step: options.step,
        details: { selector, state: options.state, timeoutMs: options.timeoutMs },
        cause: err.cause,
      },
    );
  }
  return locator;
}
