import { spawn } from 'node:child_process';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export interface NodeProcess {
  pid: number;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  /** The last lines it printed (both streams), for failure messages. */
  output(): string;
  /** Sends a signal; resolves once the process has ended. */
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

/**
 * A repository entry point run as the product runs it (`node --import tsx <entry>`, from the
 * repository root), resolved once it prints a line matching `ready` (the match is returned).
 */
export async function startNodeProcess(opts: {
  entry: string;
  env: Record<string, string>;
  ready: RegExp;
  nodeArgs?: string[];
}): Promise<{ process: NodeProcess; match: RegExpMatchArray }> {
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), '--import', 'tsx', path.join(repoRoot, opts.entry)],
    { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...opts.env }, stdio: 'pipe' },
  );
  let tail = '';
  const keep = (c: Buffer) => (tail = (tail + c.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // 'close', not 'exit': by then the last lines it printed have arrived (the error it died of).
  const exited = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const watch = () => {
      const m = tail.match(opts.ready);
      if (!m) return;
      child.stdout.off('data', watch);
      resolve(m);
    };
    child.stdout.on('data', watch);
    child.once('error', reject); // could not be started at all
    void exited.then((code) =>
      reject(new Error(`${opts.entry} exited (${code}) before it was ready:\n${tail}`)),
    );
  });
  const proc: NodeProcess = {
    pid: child.pid!,
    exited,
    output: () => tail,
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  return { process: proc, match };
}
