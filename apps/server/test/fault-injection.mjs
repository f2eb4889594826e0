/**
 * Loaded with `node --import` into a server or worker process that a test spawns (never in the
 * product): signals make it fail as a bug would, from outside any request.
 * - SIGUSR2: a promise rejects with nobody waiting for it (an unhandled rejection);
 * - SIGHUP: an exception is thrown from a timer callback (an uncaught exception).
 */
process.on('SIGUSR2', () => {
  void Promise.reject(new Error('injected rejection (fault-injection.mjs)'));
});
process.on('SIGHUP', () => {
  setTimeout(() => {
    throw new Error('injected exception (fault-injection.mjs)');
  });
});
