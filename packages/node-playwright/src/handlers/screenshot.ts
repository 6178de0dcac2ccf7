import { createHash } from 'node:crypto';
import { defineNode, type ResourceRef } from '@drover/sdk';
import { Deadline } from '../deadline.ts';
import { playwrightError } from '../errors.ts';
import { requirePage } from '../page-ref.ts';
import { ParameterReader } from '../parameter-reader.ts';
import { runStep } from '../run-step.ts';
import { waitForElement } from '../wait-for-element.ts';

/** Largest screenshot returned inline (base64 in the results), in bytes. */
export const MAX_INLINE_SCREENSHOT_BYTES = 1024 * 1024;

/** Results of `playwright.screenshot`: the PNG inline, with its digest. */
export type ScreenshotResults = {
  sha256: string;
  size: number;
  mimeType: 'image/png';
  base64: string;
  page: ResourceRef;
  done: true;
};

/**
 * `playwright.screenshot`: a PNG of the viewport, the full page (`fullPage`) or one element (`selector`), returned
 * inline up to {@link MAX_INLINE_SCREENSHOT_BYTES} (larger is `E.PW.SCREENSHOT_TOO_LARGE`).
 */
export const screenshot = defineNode<Record<string, unknown>, ScreenshotResults>(async (ctx) => {
  const params = new ParameterReader(ctx.parameters);
  const selector = params.optionalString('selector');
  const fullPage = params.flag('fullPage', false);
  const deadline = new Deadline(params.timeoutMs(5_000));
  const step = selector === undefined ? 'screenshot' : `screenshot ${selector}`;
  const { page, ref } = requirePage(ctx, step);

  ctx.log.info(step, { fullPage, timeoutMs: deadline.timeoutMs });
  let png: Buffer;
  if (selector === undefined) {
    png = await runStep(ctx.signal, step, page.screenshot({ type: 'png', fullPage, timeout: deadline.remaining() }));
  } else {
    const element = await waitForElement(ctx.signal, page, selector, {
      state: 'visible',
      timeoutMs: deadline.timeoutMs,
      step,
    });
    png = await runStep(ctx.signal, step, element.screenshot({ type: 'png', timeout: deadline.forAction() }));
  }
  if (png.length > MAX_INLINE_SCREENSHOT_BYTES) {
    throw playwrightError(
      'E.PW.SCREENSHOT_TOO_LARGE',
      `screenshot is ${png.length} bytes; at most ${MAX_INLINE_SCREENSHOT_BYTES} can be returned inline`,
      { step, details: { size: png.length, limit: MAX_INLINE_SCREENSHOT_BYTES, fullPage } },
    );
  }
  const sha256 = createHash('sha256').update(png).digest('hex');
  ctx.log.debug('screenshot taken', { size: png.length, sha256 });
  return { sha256, size: png.length, mimeType: 'image/png', base64: png.toString('base64'), page: ref, done: true };
});
