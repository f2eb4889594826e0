import { execFileSync } from 'node:child_process';
import {
  closeSync,
  ftruncateSync,
  fstatSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real small file system for fault tests: a tmpfs of `megabytes`, mounted on a new folder
 * under the temp dir (needs root, or CAP_SYS_ADMIN). `fill` takes its free space with one filler
 * file, leaving `room` bytes; `free` removes the filler. Where mounting is not allowed, `reason`
 * says why and the test skips.
 */
export type TinyFilesystem =
  | {
      dir: string;
      fill(room?: number): void;
      free(): void;
      unmount(): void;
    }
  | { reason: string };

export function mountTinyFilesystem(megabytes: number): TinyFilesystem {
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-tinyfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700`, 'tmpfs', dir], {
      stdio: 'pipe',
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || String(err);
    return { reason: `cannot mount a ${megabytes} MB tmpfs here (needs root): ${why}` };
  }
  const filler = path.join(dir, 'filler');
  const chunk = Buffer.alloc(256 * 1024, 0x5a);
  return {
    dir,
    fill(room = 0) {
      const fd = openSync(filler, 'a');
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
      // tmpfs counts whole pages: give back `room` rounded up to one.
      const size = fstatSync(fd).size;
      if (room > 0) ftruncateSync(fd, Math.max(0, size - room));
      closeSync(fd);
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' }); // still busy: detach it
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
