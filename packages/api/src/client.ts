import type { components, paths } from './generated/openapi.ts';

type Schemas = components['schemas'];

/** Error thrown by the client for a non-2xx answer; carries the API's stable error body. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    readonly statusCode: number,
    readonly body: Schemas['Error'],
  ) {
    super(`${statusCode} ${body.code}: ${body.message}`);
  }

  /** Stable error code from the body. */
  get code(): string {
    return this.body.code;
  }
}

/** Options of the API client. */
export interface ClientOptions {
  /** Base URL of the scheduler, e.g. `http://127.0.0.1:7700`. */
  baseUrl: string;
  /** Operator token sent as `Authorization: Bearer`. */
  token?: string;
}

/** Request body of `POST /api/v1/runs`; `workflow` is any object here (the scheduler validates it). */
export type CreateRunRequest = Omit<NonNullable<paths['/api/v1/runs']['post']['requestBody']>['content']['application/json'], 'workflow'> & {
  workflow: object;
};

/** A small typed client for the scheduler REST API (Node 20's fetch). */
export class DroverClient {
  constructor(private readonly options: ClientOptions) {}

  /** Submit a run; `idempotencyKey` makes a retry return the same run. */
  createRun(body: CreateRunRequest, idempotencyKey?: string): Promise<Schemas['Run']> {
    const headers: Record<string, string> = {};
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    return this.request('POST', '/api/v1/runs', body, headers);
  }

  /** A run with per-node state. */
  getRun(id: string): Promise<Schemas['Run']> {
    return this.request('GET', `/api/v1/runs/${encodeURIComponent(id)}`);
  }

  /** Newest runs first. */
  listRuns(query: { status?: Schemas['RunStatus']; limit?: number } = {}): Promise<Schemas['RunList']> {
    const qs = new URLSearchParams();
    if (query.status) qs.set('status', query.status);
    if (query.limit) qs.set('limit', String(query.limit));
    return this.request('GET', `/api/v1/runs${qs.size ? `?${qs}` : ''}`);
  }

  /** Known workers. */
  listWorkers(): Promise<Schemas['WorkerList']> {
    return this.request('GET', '/api/v1/workers');
  }

  /**
   * Poll a run until it reaches a final status; `onChange` sees every observed change of a node's status.
   * Rejects after `timeoutMs`.
   */
  async waitForRun(
    id: string,
    opts: { timeoutMs?: number; intervalMs?: number; onChange?: (run: Schemas['Run']) => void } = {},
  ): Promise<Schemas['Run']> {
    const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
    let last = '';
    for (;;) {
      const run = await this.getRun(id);
      const sig = run.status + run.nodes.map((n) => `${n.nodeId}:${n.status}:${n.attempt}`).join(',');
      if (sig !== last) {
        last = sig;
        opts.onChange?.(run);
      }
      if (run.status === 'succeeded' || run.status === 'failed' || run.status === 'cancelled') return run;
      if (Date.now() > deadline) throw new Error(`run ${id} still ${run.status} after ${opts.timeoutMs ?? 60_000} ms`);
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
    }
  }

  private async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const h: Record<string, string> = { ...headers };
    if (this.options.token) h.authorization = `Bearer ${this.options.token}`;
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(new URL(path, this.options.baseUrl), {
      method,
      headers: h,
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) throw new ApiRequestError(res.status, json as Schemas['Error']);
    return json as T;
  }
}
