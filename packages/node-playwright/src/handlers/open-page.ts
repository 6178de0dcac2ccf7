import type { Page, Response } from 'playwright-core';
import { defineNode, isNodeError, type ResourceRef } from '@drover/sdk';
import { abortable } from '../abortable.ts';
import { firstLine, playwrightError } from '../errors.ts';
import { PAGE_RESOURCE_TYPE } from '../page-ref.ts';
import { ParameterReader } from '../parameter-reader.ts';

/** How far `goto` waits, as in Playwright. */
export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle', 'commit'] as const;

/** Results of `playwright.open_page`. */
export type OpenPageResults = {
  page: ResourceRef;
  /** URL after redirects. */
  url: string;
  title: string;
  /** HTTP status of the main response; null when there was none (e.g. same-document navigation). */
  status: number | null;
  done: true;
};

/** Only http(s) may be opened; anything else (file:, data:, javascript:, chrome:) is `E.PW.URL_NOT_ALLOWED`. */
function allowedUrl(url: string, step: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw playwrightError('E.PW.URL_NOT_ALLOWED', `"${url}" is not an absolute URL`, { step, details: { url }, cause });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw playwrightError('E.PW.URL_NOT_ALLOWED', `only http(s) URLs may be opened, not ${parsed.protocol}`, {
      step,
      details: { url, protocol: parsed.protocol },
    });
  }
  return parsed;
}

/**
 * `playwright.open_page`: open a new page in the run's browser context, navigate to `url` and keep the page as a
 * run-scoped resource that downstream nodes receive through their `page` input.
 */
export const openPage = defineNode<Record<string, unknown>, OpenPageResults>(async (ctx) => {
  const params = new ParameterReader(ctx.parameters);
  const url = params.requiredString('url');
  const step = `goto ${url}`;
  allowedUrl(url, step);
  const waitUntil = params.choice('waitUntil', WAIT_UNTIL, 'load');
  const timeoutMs = params.timeoutMs(30_000);

  ctx.log.info(step, { waitUntil, timeoutMs });
  const page = (await abortable(ctx.signal, step, ctx.browser.newPage())) as Page;
  let response: Response | null;
  try {
    response = await abortable(ctx.signal, step, page.goto(url, { waitUntil, timeout: timeoutMs }));
  } catch (err) {
    await page.close().catch(() => undefined);
    if (isNodeError(err)) throw err;
    throw playwrightError('E.PW.NAVIGATION_FAILED', `navigation to ${url} failed: ${firstLine(err)}`, {
      step,
      details: { url, waitUntil, timeoutMs },
      cause: err,
    });
  }
  const ref = ctx.resources.put(PAGE_RESOURCE_TYPE, page, () => page.close());
  const title = await abortable(ctx.signal, step, page.title());
  const status = response?.status() ?? null;
  ctx.log.info('page opened', { url: page.url(), status, title });
  return { page: ref, url: page.url(), title, status, done: true };
});
