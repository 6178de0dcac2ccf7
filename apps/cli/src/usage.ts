/** Help text of the `drover` command. */
export const USAGE = `drover — Drover control plane CLI

Usage:
  drover scheduler                       run the scheduler (config from DROVER_* env, see README)
  drover worker                          run a worker (DROVER_WORKER_TOKEN, DROVER_SCHEDULER_URL, …)
  drover dev                             scheduler (PGlite) + one worker with the built packages, one token
  drover pkg build                       build every node package into dist/cwx/*.cwx
  drover pkg install <file.cwx>…         verify and install packages into the worker packages directory
  drover pkg list                        list installed packages
  drover runs submit <workflow.json>     submit a run  [--inputs JSON] [--idempotency-key K] [--wait]
  drover runs get <id>                   show a run with its nodes
  drover runs list                       list recent runs  [--status S] [--limit N]
  drover workers                         list workers

Options:
  --url URL            scheduler base URL (env DROVER_URL, default http://127.0.0.1:7700)
  --token TOKEN        operator token (env DROVER_API_TOKEN)
  --packages-dir DIR   worker packages directory (env DROVER_PACKAGES_DIR, default .drover/worker/packages)
  --json               print JSON instead of text
  -h, --help           this help
`;
