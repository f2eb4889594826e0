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

/** Size of the sustained write: far beyond what a disk's or a hypervisor's write cache absorbs. */
export const SUSTAINED_BYTES = 256 * 2 ** 20;

/**
 * The disk's raw sequential write speed in bytes per second, measured as `dd bs=1M count=256
 * conv=fdatasync` does: 256 MiB written in 1 MiB blocks to a new `file`, then one fsync, all timed.
 * A write of a few MB with one fsync is a burst, which the write cache in front of a virtual
 * disk can absorb (on the development VM it ranged from 600 to 1,100 MB/s between runs).
 */
export function sustainedWriteBytesPerSecond(file: string): number {
  const block = Buffer.alloc(2 ** 20, 0x5a);
  const t = performance.now();
  const fd = openSync(file, 'wx');
  try {
    for (let written = 0; written < SUSTAINED_BYTES;) written += writeSync(fd, block);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const seconds = (performance.now() - t) / 1000;
  rmSync(file);
  return SUSTAINED_BYTES / seconds;
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
