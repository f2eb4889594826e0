import { open, type FileHandle } from 'node:fs/promises';
import { devNull } from 'node:os';

/**
 * A disk that fills up, for fault tests: every FileHandle.writev of this process (how the local
 * storage writes files, storage/durable-file.ts) draws on `room`; a write that does not fit
 * writes what fits, as write(2) does, and the next one fails with a real-shaped ENOSPC. Tests
 * run in their own worker, so no other test's writes go through this hook.
 */
export interface DiskFull {
  /** Leaves `room` bytes (default none) before writes fail with ENOSPC. */
  fill(room?: number): void;
  /** Space returns: writes succeed again. */
  free(): void;
  /** Bytes written while the disk was filling (partial files included). */
  writtenWhileFull: number;
  /** Writes refused with ENOSPC. */
  refused: number;
  /** Puts FileHandle.writev back. */
  restore(): void;
}

export function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
  });
}

export async function hookDiskWrites(): Promise<DiskFull> {
  const probe = await open(devNull, 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = proto.writev;
  let room = Infinity;
  const state: DiskFull = {
    fill: (r = 0) => {
      room = r;
    },
    free: () => {
      room = Infinity;
    },
    writtenWhileFull: 0,
    refused: 0,
    restore: () => {
      proto.writev = original;
    },
  };
  proto.writev = async function (this: FileHandle, buffers: NodeJS.ArrayBufferView[], position) {
    const bytes = buffers.reduce((n, b) => n + b.byteLength, 0);
    if (room === Infinity) return original.call(this, buffers, position);
    if (room === 0) {
      state.refused++;
      throw enospc();
    }
    const fits = Math.min(bytes, room);
    const all = Buffer.concat(
      buffers.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)),
    );
    const written = await original.call(this, [all.subarray(0, fits)], position);
    room -= written.bytesWritten;
    state.writtenWhileFull += written.bytesWritten;
    return { bytesWritten: written.bytesWritten, buffers };
  } as FileHandle['writev'];
  return state;
}
