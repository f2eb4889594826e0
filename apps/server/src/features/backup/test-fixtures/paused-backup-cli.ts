// `npm run backup` as its own process (the real command's runAsProcess), paused before the step
// named first on the command line: it prints `paused before <step>` and waits there until a
// signal arrives, so a test interrupts it at a known point instead of guessing when.
//   node --import tsx paused-backup-cli.ts <step> backup <archive>
import { runAsProcess } from '../backup-cli';

const [pauseAt, ...argv] = process.argv.slice(2);
runAsProcess(argv, async (step) => {
  if (step !== pauseAt) return;
  console.log(`paused before ${step}`);
  // A pending promise alone does not keep a process alive: a timer does, until the signal.
  const alive = setInterval(() => {}, 60_000);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  clearInterval(alive);
});
