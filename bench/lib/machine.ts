import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

/** One line naming the machine a benchmark ran on. */
export function machineLine(): string {
  return `machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.availableParallelism()}, ${(
    os.totalmem() /
    2 ** 30
  ).toFixed(1)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** Prints a figure in the form bench/run.mjs collects into bench/REPORT.md. */
export function result(r: {
  name: string;
  value: number;
  unit: string;
  target?: string;
  met?: boolean;
}) {
  console.log(`RESULT ${JSON.stringify(r)}`);
}

/** Resident and peak resident memory of a process, in bytes (Linux /proc). */
export function memoryOf(pid: number | 'self' = 'self'): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) =>
    Number(status.match(new RegExp(`${key}:\\s+(\\d+) kB`))?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Resets a process's peak-RSS mark, so the next peak is measured from now. */
export function resetPeak(pid: number | 'self' = 'self') {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export const mb = (bytes: number) => bytes / 2 ** 20;
