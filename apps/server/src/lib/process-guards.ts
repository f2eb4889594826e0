import type { FastifyInstance } from 'fastify';

/** How long a process that met an uncaught exception has to hand its jobs back before it exits. */
const FATAL_CLOSE_MS = 5000;

/**
 * The last guard of an app server or worker process (server.ts, worker.ts), for what slipped past
 * every catch:
 * - an unhandled promise rejection is logged, and the process keeps serving. It is one operation
 *   whose caller did not wait for it (every known path catches its own faults, e.g. the jobs'
 *   bookkeeping, features/jobs/bookkeeping.ts); ending the process for it would drop every other
 *   user's requests and running jobs.
 * - an uncaught exception is logged, and the process stops: its jobs are handed back (within
 *   FATAL_CLOSE_MS) and it exits with code 1, for its supervisor (systemd, Docker's restart
 *   policy, Kubernetes) to start a fresh one. A throw that unwound an event handler may have left
 *   state half-changed (a lock held, a counter off), and serving on from a state nobody knows is
 *   worse than a restart.
 */
export function guardProcess(app: FastifyInstance) {
  process.on('unhandledRejection', (reason) => {
    app.log.error(
      { err: reason },
      'unhandled promise rejection (a fault some code did not wait for); still serving',
    );
  });
  let fatal = false;
  process.on('uncaughtException', (err, origin) => {
    app.log.fatal({ err, origin }, 'uncaught exception: the process stops, to be restarted clean');
    if (fatal) return;
    fatal = true;
    const force = setTimeout(() => process.exit(1), FATAL_CLOSE_MS);
    force.unref();
    const exit = () => process.exit(1);
    app.close().then(exit, exit);
  });
}
