import type { FastifyInstance } from 'fastify';
import { useSharedBrowsers } from './features/analysis';
import { closeCpuPool } from './workers/cpu-pool';

/**
 * The one place that says in what order a process that runs jobs (an app server or a worker)
 * lets go of them when it stops:
 *
 * 1. Jobs: the queue stops handing this process jobs, and the running ones are stopped and given
 *    back to it (jobs.close), with the model calls and pages they finished kept as parts: another
 *    process, or this one's next start, resumes them. Their CPU tasks and browser pages end with
 *    them (both follow the job's signal).
 * 2. Browsers: the shared Chromium of page audits, once no job of this process can be using it.
 * 3. Worker pools: the CPU pool's workers, idle by then.
 *
 * It runs as a `preClose` hook: Fastify runs those before every `onClose` hook, whatever the order
 * plugins registered in, so the jobs have handed over before the model, the file store and the
 * database close (their own `onClose` hooks), and while requests already get 503 (the routes
 * close first). Before, each step was its own `onClose` hook, and Fastify runs those last
 * registered first: Chromium closed before the jobs stopped, and a running audit was stored as
 * failed instead of handed over.
 */
export function registerShutdownOrder(app: FastifyInstance) {
  // Shared by every app of the process (tests run several): the last one to go closes them.
  const releaseBrowsers = useSharedBrowsers();
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      try {
        await app.jobs.close();
      } finally {
        await releaseBrowsers();
        await closeCpuPool();
      }
    })());
  app.addHook('preClose', stop);
  // Fastify skips preClose for an app closed before it was ready; nothing ran, but the browsers
  // are still released (once: after a preClose this is the same promise).
  app.addHook('onClose', stop);
}
