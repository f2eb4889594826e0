import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A stand-in pdftotext for tests of stopped reads: each run notes its process id, then reads for
 * five minutes unless killed, so only a stop ends it within a test. `command` goes to
 * configureReader with a time limit to match.
 */
export function slowPdftotext(prefix: string) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const pids = path.join(dir, 'pids');
  const command = path.join(dir, 'pdftotext');
  writeFileSync(
    command,
    `#!/bin/sh\necho $$ >> ${pids}\ncat > /dev/null\n` +
      `i=0\nwhile [ $i -lt 6000 ]; do sleep 0.05; i=$((i+1)); done\nprintf 'Too late.\\f'\n`,
  );
  chmodSync(command, 0o755);
  /** The process ids of the runs started so far, in order. */
  const started = () => (existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n') : []);
  const running = (pid: string) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch {
      return false;
    }
  };
  /** Ends the runs still reading (a failed test leaves them). */
  const endAll = () => {
    for (const pid of started()) if (running(pid)) process.kill(Number(pid), 'SIGKILL');
  };
  const remove = () => {
    endAll();
    rmSync(dir, { recursive: true, force: true });
  };
  return { command, started, running, endAll, remove, timeLimitMs: 300_000 };
}
