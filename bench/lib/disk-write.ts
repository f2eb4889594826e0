import { closeSync, fsyncSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';

/**
 * Seconds to write `bytes` to `file` without fsync: the kernel only copies them into the page
 * cache, so this is memory speed, not the disk's.
 */
export function pageCacheWriteSeconds(file: string, bytes: Uint8Array): number {
  const t = performance.now();
  writeFileSync(file, bytes);
  const seconds = (performance.now() - t) / 1000;
  rmSync(file);
  return seconds;
}

/** Seconds to write `bytes` to a new `file` and fsync it: the disk's durable write speed. */
export function syncedWriteSeconds(file: string, bytes: Uint8Array): number {
  const t = performance.now();
  const fd = openSync(file, 'wx');
  try {
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const seconds = (performance.now() - t) / 1000;
  rmSync(file);
  return seconds;
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
