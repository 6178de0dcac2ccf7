// Scheduler process entry point: read config, build the app, listen, and shut down cleanly on SIGINT/SIGTERM.
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

const config = loadConfig();
const app = await buildApp(config).catch((err: Error & { code?: string }) => {
  process.stderr.write(`drover scheduler: ${err.code ? `${err.code}: ` : ''}${err.message}\n`);
  process.exit(1);
});
const address = await app.listen({ host: config.host, port: config.port });
app.log.info({ address, database: app.drover.store.dialect }, 'scheduler listening');
// The demo and tests read this line to learn the port when DROVER_PORT=0.
process.stdout.write(`DROVER_SCHEDULER_LISTENING ${address}\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
