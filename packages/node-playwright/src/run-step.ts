import { isNodeError } from '@drover/sdk';
import { abortable } from './abortable.ts';
import { firstLine, playwrightError } from './errors.ts';

/**
 * Run one Playwright call as the named step: abortable through the attempt's `signal`, with its failure reported as
 * `E.PW.PAGE_CLOSED` when the page went away and `E.PW.ACTION_FAILED` otherwise (NodeErrors pass through).
 */
export async function runStep<T>(signal: AbortSignal, step: string, work: Promise<T>): Promise<T> {
  try {
    return await abortable(signal, step, work);
  } catch (err) {
    if (isNodeError(err)) throw err;
    if (/has been closed/.test(firstLine(err))) {
      throw playwrightError('E.PW.PAGE_CLOSED', `${step}: the page has been closed`, { step, cause: err });
    }
    throw playwrightError('E.PW.ACTION_FAILED', `${step} failed: ${firstLine(err)}`, { step, cause: err });
  }
}
