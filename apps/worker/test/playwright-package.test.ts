// End to end for the built-in node packages without the scheduler: build the .cwx files, install them, import the
// installed entrypoints and run their handlers against a real warm Chromium and a real resource table.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installCwx, type InstalledPackage, type ManifestNode } from '@drover/cwx';
import { isNodeError, isResourceRef, type HandlerTable, type ResourceRef } from '@drover/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNodePackages, type BuiltNodePackage } from '../../../scripts/build-packages.ts';
import { BrowserPool } from '../src/browser-pool.ts';
import { RunResourceTable } from '../src/run-resources.ts';
import { makeExecutionContext, type TestContext } from './fixtures/execution-context.ts';
import { startFormServer, type FormServer } from './fixtures/form-server.ts';

const CHROMIUM = process.env['DROVER_CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const WORKER_ID = 'worker-e2e';

interface LoadedPackage {
  installed: InstalledPackage;
  handlers: HandlerTable;
}

let packagesRoot: string;
let built: BuiltNodePackage[];
let playwright: LoadedPackage;
let testNodes: LoadedPackage;
let pool: BrowserPool;
let resources: RunResourceTable;
let server: FormServer;

/** Install one built .cwx (digest and size checked) and import its adapter entrypoint from the installed copy. */
async function installAndLoad(name: string): Promise<LoadedPackage> {
  const pkg = built.find((b) => b.name === name);
  if (pkg === undefined) throw new Error(`buildNodePackages did not build ${name}`);
  const installed = await installCwx(await readFile(pkg.file), packagesRoot, {
    expectedSha256: pkg.sha256,
    expectedSize: pkg.size,
  });
  const entrypoint = join(installed.dir, installed.manifest.adapters[0].entrypoint);
  const mod = (await import(pathToFileURL(entrypoint).href)) as { handlers: HandlerTable };
  return { installed, handlers: mod.handlers };
}

beforeAll(async () => {
  packagesRoot = await mkdtemp(join(tmpdir(), 'drover-packages-'));
  built = await buildNodePackages();
  playwright = await installAndLoad('drover.playwright');
  testNodes = await installAndLoad('drover.test');
  pool = new BrowserPool({ executablePath: CHROMIUM, warmContexts: 1 });
  resources = new RunResourceTable(WORKER_ID);
  server = await startFormServer();
  await pool.start();
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
  if (packagesRoot !== undefined) await rm(packagesRoot, { recursive: true, force: true });
});

/** The manifest node of `type` in a loaded package. */
function manifestNode(pkg: LoadedPackage, type: string): ManifestNode {
  const node = pkg.installed.manifest.nodes.find((n) => n.type === type);
  if (node === undefined) throw new Error(`${pkg.installed.name} has no node ${type}`);
  return node;
}

/** Run one node the way the worker does: `handlers[manifestNode.handler](ctx)`. */
async function runNode(
  pkg: LoadedPackage,
  runId: string,
  type: string,
  parameters: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ results: Record<string, unknown>; ctx: TestContext }> {
  const handler = pkg.handlers[manifestNode(pkg, type).handler];
  if (handler === undefined) throw new Error(`no handler for ${type}`);
  const ctx = makeExecutionContext({ runId, nodeType: type, parameters, browser: pool, resources, signal });
  return { results: await handler(ctx), ctx };
}

const pw = (runId: string, type: string, parameters: Record<string, unknown>, signal?: AbortSignal) =>
  runNode(playwright, runId, `playwright.${type}`, parameters, signal);

/** The NodeError a node failed with, as plain data (the error class is the bundle's own copy of the SDK's). */
async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; step?: string; message: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (err) {
    if (!isNodeError(err)) throw err;
    return { code: err.code, step: err.step, message: err.message, details: err.details };
  }
  throw new Error('expected the node to fail');
}

async function openPage(runId: string, path: string): Promise<ResourceRef> {
  const { results } = await pw(runId, 'open_page', { url: `${server.url}${path}` });
  if (!isResourceRef(results['page'])) throw new Error('open_page returned no page reference');
  return results['page'];
}

describe('drover.playwright package', () => {
  it('is built without Playwright inside and maps every manifest node to a handler', async () => {
    const bundle = await readFile(join(playwright.installed.dir, 'dist/index.mjs'), 'utf8');
    expect(bundle).not.toMatch(/from\s*["']playwright(-core)?["']/);
    expect(bundle).not.toMatch(/require\(["']playwright/);
    const types = playwright.installed.manifest.nodes.map((n) => n.type);
    expect(types).toEqual([
      'playwright.open_page',
      'playwright.click',
      'playwright.fill',
      'playwright.assert_text',
      'playwright.extract_text',
      'playwright.screenshot',
    ]);
    for (const node of playwright.installed.manifest.nodes)
      expect(typeof playwright.handlers[node.handler]).toBe('function');
  });

  it('runs open_page → fill → click → assert_text → extract_text → screenshot on one page', async () => {
    const runId = 'run-chain';
    const open = await pw(runId, 'open_page', { url: `${server.url}/form` });
    expect(open.results).toMatchObject({ url: `${server.url}/form`, title: 'Drover form', status: 200, done: true });
    const page = open.results['page'] as ResourceRef;
    expect(page.$resource).toMatchObject({ workerId: WORKER_ID, type: 'playwright.page' });

    const filled = await pw(runId, 'fill', { page, selector: '#name', value: 'Ada' });
    expect(filled.results).toEqual({ page, done: true });
    const clicked = await pw(runId, 'click', { page: filled.results['page'], selector: '#submit' });
    expect(clicked.results).toEqual({ page, done: true });
    expect(clicked.ctx.logs.map((l) => l.message)).toContain('click #submit');

    // The greeting appears 150 ms after the click, with extra spaces: assert_text waits and normalises.
    const asserted = await pw(runId, 'assert_text', {
      page,
      selector: '#greeting',
      expected: 'Hello, Ada!',
      mode: 'equals',
    });
    expect(asserted.results).toEqual({ text: 'Hello, Ada!', page, done: true });
    const matched = await pw(runId, 'assert_text', {
      page,
      selector: '#greeting',
      expected: '^hello, \\w+!$',
      mode: 'matches',
      ignoreCase: true,
    });
    expect(matched.results['text']).toBe('Hello, Ada!');

    const extracted = await pw(runId, 'extract_text', { page, selector: '#greeting' });
    expect(extracted.results).toEqual({ text: 'Hello, Ada!', page, done: true });

    const shot = await pw(runId, 'screenshot', { page });
    const png = Buffer.from(shot.results['base64'] as string, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(shot.results).toMatchObject({
      mimeType: 'image/png',
      size: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
      page,
      done: true,
    });
    await resources.releaseRun(runId);
    await pool.releaseRun(runId);
  });

  it('fails fast with E.PW.SELECTOR_NOT_FOUND naming the step, selector and timeout', async () => {
    const runId = 'run-missing-selector';
    const page = await openPage(runId, '/form');
    const started = Date.now();
    const err = await failure(pw(runId, 'click', { page, selector: '#does-not-exist', timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err.code).toBe('E.PW.SELECTOR_NOT_FOUND');
    expect(err.step).toBe('click #does-not-exist');
    expect(err.message).toContain('#does-not-exist');
    expect(err.message).toContain('300 ms');
    expect(err.details).toMatchObject({ selector: '#does-not-exist', timeoutMs: 300 });
    await resources.releaseRun(runId);
    await pool.releaseRun(runId);
  });

  it('fails an assertion with E.PW.ASSERTION_FAILED carrying expected and actual', async () => {
    const runId = 'run-assert';
    const page = await openPage(runId, '/set-cookie');
    const err = await failure(
      pw(runId, 'assert_text', { page, selector: '#status', expected: 'cookie eaten', mode: 'equals', timeoutMs: 2000 }),
    );
    expect(err.code).toBe('E.PW.ASSERTION_FAILED');
    expect(err.step).toBe('assert_text #status');
    expect(err.details).toMatchObject({ expected: 'cookie eaten', actual: 'cookie set', mode: 'equals' });
    await resources.releaseRun(runId);
    await pool.releaseRun(runId);
  });

  it('refuses non-http(s) URLs with E.PW.URL_NOT_ALLOWED', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'chrome://version']) {
      const err = await failure(pw('run-urls', 'open_page', { url }));
      expect(err.code).toBe('E.PW.URL_NOT_ALLOWED');
      expect(err.step).toBe(`goto ${url}`);
    }
    await pool.releaseRun('run-urls');
  });

  it('reports navigation failures with E.PW.NAVIGATION_FAILED', async () => {
    const err = await failure(pw('run-nav', 'open_page', { url: `${server.url}/slow`, timeoutMs: 300 }));
    expect(err.code).toBe('E.PW.NAVIGATION_FAILED');
    await pool.releaseRun('run-nav');
  });

  it('requires a page from this run: none is E.PW.PAGE_REQUIRED, another run’s is E.RESOURCE.NOT_FOUND', async () => {
    expect((await failure(pw('run-a', 'click', { selector: '#submit' }))).code).toBe('E.PW.PAGE_REQUIRED');
    const page = await openPage('run-a', '/form');
    const otherRun = await failure(pw('run-b', 'click', { page, selector: '#submit' }));
    expect(otherRun).toMatchObject({ code: 'E.RESOURCE.NOT_FOUND', step: 'click #submit' });
    const foreign = { $resource: { ...page.$resource, workerId: 'another-worker' } };
    expect((await failure(pw('run-a', 'click', { page: foreign, selector: '#submit' }))).code).toBe(
      'E.RESOURCE.WRONG_WORKER',
    );
    for (const runId of ['run-a', 'run-b']) {
      await resources.releaseRun(runId);
      await pool.releaseRun(runId);
    }
  });

  it('gives each run its own browser context: a cookie set in one is absent in the other', async () => {
    await openPage('run-cookie-1', '/set-cookie');
    const other = await openPage('run-cookie-2', '/cookies');
    const otherCookies = await pw('run-cookie-2', 'extract_text', { page: other, selector: '#cookies' });
    expect(otherCookies.results['text']).toBe('');
    const same = await openPage('run-cookie-1', '/cookies');
    const sameCookies = await pw('run-cookie-1', 'extract_text', { page: same, selector: '#cookies' });
    expect(sameCookies.results['text']).toBe('seen=1');
    for (const runId of ['run-cookie-1', 'run-cookie-2']) {
      await resources.releaseRun(runId);
      await pool.releaseRun(runId);
    }
  });

  it('closes a run’s pages when the run is released', async () => {
    const runId = 'run-release';
    const ref = await openPage(runId, '/form');
    const page = resources.forRun(runId).get<Page>(ref, 'playwright.page');
    const before = resources.size();
    await resources.releaseRun(runId);
    await pool.releaseRun(runId);
    expect(page.isClosed()).toBe(true);
    expect(resources.size()).toBe(before - 1);
    expect((await failure(pw(runId, 'click', { page: ref, selector: '#submit' }))).code).toBe('E.RESOURCE.NOT_FOUND');
    await pool.releaseRun(runId);
  });

  it('stops with E.RUNNER.ABORTED when the attempt is aborted, keeping a coded reason', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by test')), 200);
    const started = Date.now();
    const err = await failure(pw('run-abort', 'open_page', { url: `${server.url}/slow` }, controller.signal));
    expect(err.code).toBe('E.RUNNER.ABORTED');
    expect(err.step).toBe(`goto ${server.url}/slow`);
    expect(Date.now() - started).toBeLessThan(10_000);

    // The runner aborts a timed-out attempt with a reason coded E.RUNNER.TIMEOUT; the node reports that code.
    const page = await openPage('run-abort', '/form');
    const timeout = new AbortController();
    const reason = Object.assign(new Error('node ran longer than 100 ms'), { code: 'E.RUNNER.TIMEOUT' });
    setTimeout(() => timeout.abort(reason), 100);
    const timedOut = await failure(
      pw('run-abort', 'click', { page, selector: '#never', timeoutMs: 60_000 }, timeout.signal),
    );
    expect(timedOut.code).toBe('E.RUNNER.TIMEOUT');
    await resources.releaseRun('run-abort');
    await pool.releaseRun('run-abort');
  });

  it('refuses to inline a screenshot over 1 MiB', async () => {
    const runId = 'run-noise';
    const page = await openPage(runId, '/noise');
    const err = await failure(pw(runId, 'screenshot', { page, selector: '#noise' }));
    expect(err.code).toBe('E.PW.SCREENSHOT_TOO_LARGE');
    expect(err.details?.['size']).toBeGreaterThan(1024 * 1024);
    await resources.releaseRun(runId);
    await pool.releaseRun(runId);
  });
});

describe('BrowserPool', () => {
  it('hands a run its pre-created page and refills the spare', async () => {
    const spare = await waitFor(() => pool.stats().spares === 1);
    expect(spare).toBe(true);
    const page = (await pool.forRun('run-warm').newPage()) as Page;
    expect(page.url()).toBe('about:blank');
    expect(await waitFor(() => pool.stats().spares === 1)).toBe(true);
    const second = (await pool.forRun('run-warm').newPage()) as Page;
    expect(second).not.toBe(page);
    expect(second.context()).toBe(page.context());
    await pool.releaseRun('run-warm');
    expect(page.isClosed()).toBe(true);
  });

  it('relaunches Chromium on next use after it disconnects', async () => {
    const context = (await pool.forRun('run-crash').context()) as import('playwright-core').BrowserContext;
    const browser = context.browser();
    expect(browser?.isConnected()).toBe(true);
    await browser?.close(); // the fault: the browser goes away under the pool
    expect(browser?.isConnected()).toBe(false);
    expect(pool.stats().connected).toBe(false);
    const ref = await openPage('run-after-crash', '/form');
    expect(pool.stats().connected).toBe(true);
    expect(pool.version()).toMatch(/^\d+\./);
    const greeting = await pw('run-after-crash', 'extract_text', { page: ref, selector: 'title', timeoutMs: 1_000 });
    expect(greeting.results['done']).toBe(true);
    // The run whose context died gets a fresh one on the relaunched browser.
    const again = (await pool.forRun('run-crash').context()) as import('playwright-core').BrowserContext;
    expect(again).not.toBe(context);
    expect(again.browser()?.isConnected()).toBe(true);
    for (const runId of ['run-crash', 'run-after-crash']) {
      await resources.releaseRun(runId);
      await pool.releaseRun(runId);
    }
  });
});

describe('RunResourceTable', () => {
  const ref = (id: string, type = 'thing', workerId = 'w1'): ResourceRef => ({ $resource: { workerId, id, type } });

  it('resolves refs of its own run, with specific codes for every other case', async () => {
    const table = new RunResourceTable('w1');
    const mine = table.forRun('r1').put('thing', { n: 1 });
    expect(mine.$resource).toMatchObject({ workerId: 'w1', type: 'thing' });
    expect(table.forRun('r1').get(mine, 'thing')).toEqual({ n: 1 });
    expect(table.forRun('r1').get(mine)).toEqual({ n: 1 });
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return isNodeError(err) ? err.code : String(err);
      }
      return 'no error';
    };
    expect(code(() => table.forRun('r2').get(mine))).toBe('E.RESOURCE.NOT_FOUND');
    expect(code(() => table.forRun('r1').get(ref('nope')))).toBe('E.RESOURCE.NOT_FOUND');
    expect(code(() => table.forRun('r1').get(ref(mine.$resource.id, 'thing', 'w2')))).toBe('E.RESOURCE.WRONG_WORKER');
    expect(code(() => table.forRun('r1').get(mine, 'playwright.page'))).toBe('E.RESOURCE.TYPE_MISMATCH');
    expect(code(() => table.forRun('r1').get(ref(mine.$resource.id, 'other')))).toBe('E.RESOURCE.TYPE_MISMATCH');
    expect(code(() => table.forRun('r1').get({ id: 'x' }))).toBe('E.RESOURCE.INVALID_REF');
    await table.releaseRun('r1');
    await table.releaseRun('r2');
    expect(table.size()).toBe(0);
  });

  it('disposes newest first on release, survives failing disposers, and refuses puts after release', async () => {
    const disposed: string[] = [];
    const table = new RunResourceTable('w1', { disposeTimeoutMs: 100 });
    const resources = table.forRun('r1');
    resources.put('a', 'a', () => void disposed.push('a'));
    resources.put('b', 'b', () => {
      throw new Error('b broke');
    });
    resources.put('c', 'c', () => new Promise<void>(() => undefined)); // never settles: cut off by the timeout
    resources.put('d', 'd', async () => void disposed.push('d'));
    table.forRun('r2').put('e', 'e', () => void disposed.push('e'));
    expect(table.size()).toBe(5);
    await table.releaseRun('r1');
    expect(disposed).toEqual(['d', 'a']);
    expect(table.size()).toBe(1);

    let late = false;
    let error: unknown;
    try {
      resources.put('late', 'x', () => {
        late = true;
      });
    } catch (err) {
      error = err;
    }
    expect(isNodeError(error) && error.code).toBe('E.RESOURCE.RUN_RELEASED');
    await new Promise((r) => setImmediate(r));
    expect(late).toBe(true);
    await table.releaseRun('r2');
    expect(disposed).toEqual(['d', 'a', 'e']);
  });
});

describe('drover.test package', () => {
  const runId = 'run-test-nodes';

  it('echo returns its value; noop succeeds', async () => {
    const value = { nested: [1, 'two', null] };
    expect((await runNode(testNodes, runId, 'test.echo', { value })).results).toEqual({ value, done: true });
    expect((await runNode(testNodes, runId, 'test.noop', {})).results).toEqual({ done: true });
  });

  it('fail throws the requested code and message, E.TEST.FAILED by default', async () => {
    const custom = await failure(
      runNode(testNodes, runId, 'test.fail', { code: 'E.DEMO.BROKEN', message: 'as asked' }),
    );
    expect(custom).toMatchObject({ code: 'E.DEMO.BROKEN', message: 'as asked', step: 'fail' });
    expect((await failure(runNode(testNodes, runId, 'test.fail', {}))).code).toBe('E.TEST.FAILED');
  });

  it('sleep sleeps and honours abort', async () => {
    const slept = await runNode(testNodes, runId, 'test.sleep', { ms: 20 });
    expect(slept.results['done']).toBe(true);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const err = await failure(runNode(testNodes, runId, 'test.sleep', { ms: 60_000 }, controller.signal));
    expect(err.code).toBe('E.RUNNER.ABORTED');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

/** Poll `check` for up to 5 s; true once it held. */
async function waitFor(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
