import { NodeError, type BrowserAccess } from '@drover/sdk';
import type { Logger } from 'pino';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Chromium flags for a headless worker: no sandbox (containers), no GPU, no background traffic or updates. */
export const DEFAULT_CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]);

/** Error codes the pool fails with (NodeErrors, so a Playwright node reports them as its failure code). */
export const BROWSER_POOL_ERROR_CODES = {
  'E.BROWSER.LAUNCH_FAILED': 'Chromium could not be launched from the configured path.',
  'E.BROWSER.NOT_STARTED': 'The browser version was asked for before Chromium was launched.',
  'E.BROWSER.POOL_CLOSED': 'The browser pool has been closed (the worker is shutting down).',
  'E.BROWSER.CONTEXT_FAILED': "A run's browser context could not be created.",
  'E.BROWSER.PAGE_FAILED': "A page could not be opened in the run's browser context.",
  'E.BROWSER.RUN_RELEASED': "The run's browser context was released while a node still used it.",
} as const;

type BrowserPoolErrorCode = keyof typeof BROWSER_POOL_ERROR_CODES;

function browserError(
  code: BrowserPoolErrorCode,
  message: string,
  options: { details?: Record<string, unknown>; cause?: unknown } = {},
): NodeError {
  return new NodeError(code, message, options);
}

/** Options of {@link BrowserPool}. */
export interface BrowserPoolOptions {
  /** Chromium binary to launch (e.g. Debian's `/usr/bin/chromium`); Playwright never downloads one. */
  executablePath: string;
  /**
   * Command-line flags for Chromium.
   * @default DEFAULT_CHROMIUM_ARGS
   */
  args?: readonly string[];
  /**
   * Run without a window.
   * @default true
   */
  headless?: boolean;
  /**
   * Spare contexts (each with one pre-created page) kept ready so that a run's first page costs nothing.
   * @default 1
   */
  warmContexts?: number;
  /**
   * How long a Chromium launch may take.
   * @default 30000
   */
  launchTimeoutMs?: number;
  /** Where launches, crashes and refill failures are reported. @default undefined (silent) */
  logger?: Logger;
}

/** A ready context with its first page, not yet given to any run. */
interface Spare {
  context: BrowserContext;
  page: Page;
}

/** The browser state of one run. */
interface RunBrowser {
  runId: string;
  /** The run's context, shared by concurrent callers while it is being created. */
  context: Promise<BrowserContext> | undefined;
  /** The page that came pre-created with a spare context; handed out by the run's first `newPage()`. */
  firstPage: Page | undefined;
  released: boolean;
}

const ignore = (): void => undefined;

/**
 * One warm Chromium per worker and a fresh BrowserContext per run (fresh cookies and storage), with spare contexts
 * and pages prepared in the background. A crashed browser is relaunched on next use. Failures are NodeErrors with
 * `E.BROWSER.*` codes so they surface as a node's failure code.
 */
export class BrowserPool {
  private readonly args: readonly string[];
  private readonly warmContexts: number;
  private launching: Promise<Browser> | undefined;
  private browser: Browser | undefined;
  private browserVersion: string | undefined;
  private spares: Spare[] = [];
  private sparesInFlight = 0;
  private readonly runs = new Map<string, RunBrowser>();
  private closed = false;

  constructor(private readonly options: BrowserPoolOptions) {
    this.args = options.args ?? DEFAULT_CHROMIUM_ARGS;
    this.warmContexts = Math.max(0, options.warmContexts ?? 1);
  }

  /** Launch Chromium and prepare the spare contexts; resolves when the first run would get a warm page. */
  async start(): Promise<void> {
    await this.ensureBrowser();
    await this.fillSpares();
  }

  /** Browser access for the nodes of run `runId`. The run's context is created (or taken warm) on first use. */
  forRun(runId: string): BrowserAccess {
    let state = this.runs.get(runId);
    if (state === undefined) {
      state = { runId, context: undefined, firstPage: undefined, released: false };
      this.runs.set(runId, state);
    }
    const bound = state;
    return {
      context: () => this.runContext(bound),
      newPage: () => this.newPage(bound),
    };
  }

  /** Close run `runId`'s context and every page in it. Never throws. */
  async releaseRun(runId: string): Promise<void> {
    const state = this.runs.get(runId);
    if (state === undefined) return;
    state.released = true;
    this.runs.delete(runId);
    const pending = state.context;
    state.context = undefined;
    state.firstPage = undefined;
    if (pending === undefined) return;
    try {
      await (await pending).close();
    } catch (err) {
      this.options.logger?.debug({ err, runId }, 'closing a run context failed (browser already gone?)');
    }
  }

  /** Close every context and the browser. The pool cannot be used afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.runs.keys()].map((runId) => this.releaseRun(runId)));
    this.spares = [];
    const launching = this.launching;
    this.launching = undefined;
    this.browser = undefined;
    const browser = await launching?.catch(() => undefined);
    await browser?.close().catch(ignore);
  }

  /** Version of the running (or last launched) Chromium, e.g. `156.0.8078.79`. */
  version(): string {
    if (this.browserVersion === undefined) {
      throw browserError('E.BROWSER.NOT_STARTED', 'the browser has not been launched yet');
    }
    return this.browserVersion;
  }

  /** Counts for health checks and tests. */
  stats(): { connected: boolean; runs: number; spares: number } {
    return { connected: this.browser?.isConnected() ?? false, runs: this.runs.size, spares: this.spares.length };
  }

  private ensureBrowser(): Promise<Browser> {
    if (this.closed) return Promise.reject(browserError('E.BROWSER.POOL_CLOSED', 'the browser pool is closed'));
    if (this.launching === undefined) {
      const launching = this.launch();
      this.launching = launching;
      launching.catch(() => {
        if (this.launching === launching) this.launching = undefined;
      });
    }
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const started = Date.now();
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath: this.options.executablePath,
        args: [...this.args],
        headless: this.options.headless ?? true,
        timeout: this.options.launchTimeoutMs ?? 30_000,
      });
    } catch (cause) {
      this.options.logger?.error({ err: cause, executablePath: this.options.executablePath }, 'chromium launch failed');
      throw browserError('E.BROWSER.LAUNCH_FAILED', `cannot launch ${this.options.executablePath}: ${String(cause)}`, {
        details: { executablePath: this.options.executablePath },
        cause,
      });
    }
    browser.on('disconnected', () => this.onDisconnected(browser));
    this.browser = browser;
    this.browserVersion = browser.version();
    this.options.logger?.info({ version: this.browserVersion, ms: Date.now() - started }, 'chromium launched');
    if (this.closed) {
      await browser.close().catch(ignore);
      throw browserError('E.BROWSER.POOL_CLOSED', 'the browser pool was closed during launch');
    }
    return browser;
  }

  /** Crash (or close): forget the browser and its spares; the next use relaunches. Run contexts are recreated lazily. */
  private onDisconnected(browser: Browser): void {
    if (this.browser !== browser) return;
    this.browser = undefined;
    this.launching = undefined;
    this.spares = [];
    if (!this.closed) this.options.logger?.warn('chromium disconnected; it will be relaunched on next use');
  }

  /** Top the spares up to `warmContexts`. Never rejects: a failure is logged and retried on the next take. */
  private async fillSpares(): Promise<void> {
    while (!this.closed && this.spares.length + this.sparesInFlight < this.warmContexts) {
      this.sparesInFlight++;
      try {
        const browser = await this.ensureBrowser();
        const context = await browser.newContext();
        const page = await context.newPage();
        if (this.closed || !browser.isConnected()) {
          await context.close().catch(ignore);
          return;
        }
        this.spares.push({ context, page });
      } catch (err) {
        if (!this.closed) this.options.logger?.warn({ err }, 'preparing a spare browser context failed');
        return;
      } finally {
        this.sparesInFlight--;
      }
    }
  }

  /** A context for a run: a warm spare when one is ready (its page becomes the run's first page), else a new one. */
  private async acquireContext(state: RunBrowser): Promise<BrowserContext> {
    const browser = await this.ensureBrowser();
    const spare = this.spares.shift();
    void this.fillSpares();
    if (spare !== undefined && browser.isConnected()) {
      state.firstPage = spare.page;
      return spare.context;
    }
    try {
      return await browser.newContext();
    } catch (cause) {
      throw browserError('E.BROWSER.CONTEXT_FAILED', `cannot create a browser context: ${String(cause)}`, {
        details: { runId: state.runId },
        cause,
      });
    }
  }

  private released(state: RunBrowser): NodeError {
    return browserError(
      'E.BROWSER.RUN_RELEASED',
      `run ${state.runId} has been released; its browser context is closed`,
      {
        details: { runId: state.runId },
      },
    );
  }

  private async runContext(state: RunBrowser): Promise<BrowserContext> {
    // Two rounds at most: a context whose browser crashed is replaced once by one on a relaunched browser.
    for (let round = 0; ; round++) {
      if (state.released) throw this.released(state);
      const pending = (state.context ??= this.acquireContext(state));
      let context: BrowserContext;
      try {
        context = await pending;
      } catch (err) {
        if (state.context === pending) state.context = undefined;
        throw err;
      }
      if (state.released) {
        await context.close().catch(ignore);
        throw this.released(state);
      }
      if (context.browser()?.isConnected() === true || round > 0) return context;
      if (state.context === pending) {
        state.context = undefined;
        state.firstPage = undefined;
      }
    }
  }

  private async newPage(state: RunBrowser): Promise<Page> {
    const context = await this.runContext(state);
    const first = state.firstPage;
    state.firstPage = undefined;
    if (first !== undefined && !first.isClosed()) return first;
    try {
      return await context.newPage();
    } catch (cause) {
      if (state.released) throw this.released(state);
      throw browserError('E.BROWSER.PAGE_FAILED', `cannot open a page: ${String(cause)}`, {
        details: { runId: state.runId },
        cause,
      });
    }
  }
}
