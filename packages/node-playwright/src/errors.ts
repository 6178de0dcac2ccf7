import { NodeError } from '@drover/sdk';

/**
 * Every error code the Playwright nodes fail with, with a one-line description. Cancellation is reported with the
 * runner's own `E.RUNNER.ABORTED`, which is not listed here.
 */
export const PLAYWRIGHT_ERROR_CODES = {
  'E.PW.INVALID_PARAMETERS': 'A parameter is missing or has the wrong type or value.',
  'E.PW.URL_NOT_ALLOWED': 'The URL to open is not http(s).',
  'E.PW.NAVIGATION_FAILED': 'Navigating to the URL failed or timed out.',
  'E.PW.PAGE_REQUIRED': 'The node needs a `page` reference from an upstream Playwright node and got none.',
  'E.PW.PAGE_CLOSED': 'The referenced page has been closed (or its browser went away).',
  'E.PW.SELECTOR_NOT_FOUND': 'No element matched the selector within the timeout.',
  'E.PW.ACTION_FAILED': 'The element was found but the action on it failed or timed out.',
  'E.PW.ASSERTION_FAILED': 'The element text did not match the expected value within the timeout.',
  'E.PW.SCREENSHOT_TOO_LARGE': 'The screenshot is larger than the 1 MiB that may be returned inline.',
} as const satisfies Readonly<Record<`E.PW.${string}`, string>>;

/** A stable Playwright node error code. */
export type PlaywrightErrorCode = keyof typeof PLAYWRIGHT_ERROR_CODES;

/** Code the runner uses for a cancelled or timed-out attempt; handlers throw it when `ctx.signal` fires. */
export const ABORTED_CODE = 'E.RUNNER.ABORTED';

/** A NodeError carrying one of {@link PLAYWRIGHT_ERROR_CODES}. */
export function playwrightError(
  code: PlaywrightErrorCode,
  message: string,
  options: { step?: string; details?: Record<string, unknown>; cause?: unknown } = {},
): NodeError {
  return new NodeError(code, message, options);
}

/** First line of an error's message: Playwright appends multi-line call logs that do not belong in a code's message. */
export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n', 1)[0] ?? message;
}
