import type { Page } from 'playwright-core';
import { NodeError, isNodeError, isResourceRef, type ExecutionContext, type ResourceRef } from '@drover/sdk';
import { playwrightError } from './errors.ts';

/** Resource type under which pages live in the run's resource table. */
export const PAGE_RESOURCE_TYPE = 'playwright.page';

/** The open page a node's `parameters.page` refers to, plus the reference itself (passed through to `results.page`). */
export function requirePage(
  ctx: ExecutionContext<Record<string, unknown>>,
  step: string,
): { page: Page; ref: ResourceRef } {
  const ref = ctx.parameters['page'];
  if (!isResourceRef(ref)) {
    throw playwrightError(
      'E.PW.PAGE_REQUIRED',
      `${ctx.nodeType} needs a page: connect its "page" input to a page output`,
      {
        step,
      },
    );
  }
  let page: Page;
  try {
    page = ctx.resources.get<Page>(ref, PAGE_RESOURCE_TYPE);
  } catch (err) {
    // E.RESOURCE.* from the worker: keep the code, add the step that needed the page.
    if (!isNodeError(err)) throw err;
    throw new NodeError(err.code, err.message, { step, details: err.details, cause: err });
  }
  if (page.isClosed()) {
    throw playwrightError('E.PW.PAGE_CLOSED', `the page ${ref.$resource.id} has been closed`, {
      step,
      details: { resource: ref.$resource },
    });
  }
  return { page, ref };
}
