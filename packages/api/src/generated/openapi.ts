// DO NOT EDIT. Generated from docs/api/v1/openapi.yaml by `pnpm gen` (scripts/gen.ts).
// `pnpm gen:check` (part of the test command) fails when this file is stale.

export type paths = {
    "/api/v1/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List runs, newest first. */
        get: operations["listRuns"];
        put?: never;
        /**
         * Submit a workflow run.
         * @description Validates the definition (schema, unique UUID ids, edges between existing nodes and declared ports,
         *     acyclic), stores the run with a snapshot of the definition, and starts it. With an `Idempotency-Key`
         *     header a repeated request returns the run created by the first one (200) instead of a new run.
         */
        post: operations["createRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run with the state of each node. */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Workers known to the scheduler, with their state. */
        get: operations["listWorkers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness; the process is up. */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness; the database answers. */
        get: operations["getReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ws/worker": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * WebSocket endpoint for workers (protocol in docs/comm-protocol.md).
         * @description The worker token is checked before the upgrade; without a valid one the answer is 401 and no socket is opened.
         */
        get: operations["workerSocket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        CreateRunRequest: {
            inputs?: {
                [key: string]: unknown;
            };
            /** @description A workflow definition (schema/workflow/workflow.schema.json). */
            workflow: {
                [key: string]: unknown;
            };
        };
        Error: {
            /** @description Stable error code, e.g. E.WORKFLOW.INVALID (docs/errors.md). */
            code: string;
            details?: {
                problems?: components["schemas"]["Problem"][];
            } & {
                [key: string]: unknown;
            };
            /** @description HTTP reason phrase. */
            error: string;
            message: string;
            statusCode: number;
        };
        Health: {
            /** @enum {string} */
            database?: "postgres" | "pglite";
            /** @enum {string} */
            status: "ok" | "ready";
            version?: string;
        };
        NodeError: {
            code: string;
            details?: {
                [key: string]: unknown;
            };
            message: string;
            step?: string;
        };
        NodeState: {
            /** Format: date-time */
            ackDeadline: string | null;
            attempt: number;
            dispatchId: string | null;
            error: components["schemas"]["NodeError"] | null;
            /** Format: date-time */
            finishedAt: string | null;
            label?: string;
            /** Format: uuid */
            nodeId: string;
            package?: {
                name: string;
                version: string;
            };
            /** @description Dispatched and not yet acknowledged by the worker. */
            pendingAck: boolean;
            results: {
                [key: string]: unknown;
            } | null;
            /** Format: date-time */
            startedAt: string | null;
            status: components["schemas"]["NodeStatus"];
            /** Format: uuid */
            taskId: string;
            type: string;
            workerId: string | null;
        };
        /** @enum {string} */
        NodeStatus: "pending" | "ready" | "dispatched" | "running" | "succeeded" | "failed" | "cancelled" | "skipped";
        Problem: {
            code: string;
            message: string;
            /** @description JSON pointer into the request body. */
            pointer: string;
        };
        Run: {
            /** Format: date-time */
            createdAt: string;
            error: components["schemas"]["RunError"] | null;
            /** Format: date-time */
            finishedAt: string | null;
            /** Format: uuid */
            id: string;
            inputs: {
                [key: string]: unknown;
            };
            name?: string | null;
            nodes: components["schemas"]["NodeState"][];
            /** Format: date-time */
            startedAt: string | null;
            status: components["schemas"]["RunStatus"];
            tenant: string;
            /** Format: uuid */
            workflowId: string;
        };
        RunError: {
            code: string;
            message: string;
            /** Format: uuid */
            nodeId?: string;
            step?: string;
        };
        RunList: {
            runs: components["schemas"]["RunSummary"][];
        };
        /** @enum {string} */
        RunStatus: "queued" | "running" | "succeeded" | "failed" | "cancelled";
        RunSummary: {
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            finishedAt: string | null;
            /** Format: uuid */
            id: string;
            name?: string | null;
            /** Format: date-time */
            startedAt: string | null;
            status: components["schemas"]["RunStatus"];
            tenant: string;
            /** Format: uuid */
            workflowId: string;
        };
        Worker: {
            /** @description Has a live socket to this scheduler process. */
            connected: boolean;
            /** Format: date-time */
            connectedAt: string | null;
            id: string;
            labels: {
                [key: string]: string;
            };
            /** Format: date-time */
            lastHeartbeatAt: string | null;
            maxParallel: number;
            name: string;
            packages: {
                name: string;
                nodes?: string[];
                sha256?: string;
                version: string;
            }[];
            /** @description Tasks dispatched to it and not finished. */
            running: number;
            runtime: {
                [key: string]: unknown;
            };
            status: components["schemas"]["WorkerStatus"];
            tenant: string;
        };
        WorkerList: {
            workers: components["schemas"]["Worker"][];
        };
        /** @enum {string} */
        WorkerStatus: "online" | "offline" | "draining";
    };
    responses: {
        /** @description Missing or invalid bearer token. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    listRuns: {
        parameters: {
            query?: {
                limit?: number;
                status?: components["schemas"]["RunStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunList"];
                };
            };
            /** @description Bad query. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    createRun: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRunRequest"];
            };
        };
        responses: {
            /** @description Replay of an earlier request with the same Idempotency-Key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description Created and started. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description The request or the workflow is invalid; `details.problems` lists every problem with its JSON pointer. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The Idempotency-Key was used for a different request body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description The id is not a UUID. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such run in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Workers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkerList"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Not ready. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    workerSocket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching protocols. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
        };
    };
}
