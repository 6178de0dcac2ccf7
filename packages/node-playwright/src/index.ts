import { defineHandlers } from '@drover/sdk';
import { assertText } from './handlers/assert-text.ts';
import { click } from './handlers/click.ts';
import { extractText } from './handlers/extract-text.ts';
import { fill } from './handlers/fill.ts';
import { openPage } from './handlers/open-page.ts';
import { screenshot } from './handlers/screenshot.ts';

/** The `playwright` adapter's handlers, keyed by the manifest's `handler` names. */
export const handlers = defineHandlers({
  open_page: openPage,
  click,
  fill,
  assert_text: assertText,
  extract_text: extractText,
  screenshot,
});

export { PLAYWRIGHT_ERROR_CODES, type PlaywrightErrorCode } from './errors.ts';
export { PAGE_RESOURCE_TYPE } from './page-ref.ts';
