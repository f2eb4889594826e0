import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { DurableFileWriter, dropBytes } from './durable-file';

const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `bytes` in socket-sized pieces, so the writer batches, syncs in the background and wraps up. */
const inPieces = (bytes: Buffer, size = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    })(),
  );
const openFds = () => readdirSync('/proc/self/fd').length;

describe('DurableFileWriter', () => {
  it('writes every byte in order, several background syncs included, and closes the file', async () => {
    const bytes = randomBytes(7 * 1024 * 1024 + 123);
    const file = path.join(dir, 'whole');
    const fds = openFds();
    const writer = new DurableFileWriter(file);
    await pipeline(inPieces(bytes), writer);
    expect(writer.bytesWritten).toBe(bytes.length);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(openFds()).toBe(fds);
  });

  it('moves the file to its final name, in a folder it makes, only once every byte is written', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 7);
    const temp = path.join(dir, 'in-progress');
    const final = path.join(dir, 'new-folder', 'inner', 'final');
    const writer = new DurableFileWriter(temp, final);
    const seen: boolean[] = [];
    const source = inPieces(bytes).on('data', () => seen.push(existsSync(final)));
    await pipeline(source, writer);
    expect(seen.every((present) => !present)).toBe(true);
    expect(existsSync(temp)).toBe(false);
    expect(readFileSync(final).equals(bytes)).toBe(true);
  });

  it('never overwrites an existing file', async () => {
    const file = path.join(dir, 'taken');
    writeFileSync(file, 'mine');
    await expect(
      pipeline(inPieces(Buffer.from('theirs')), new DurableFileWriter(file)),
    ).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });

  it('fails with the source and still closes the file', async () => {
    const fds = openFds();
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(3 * 1024 * 1024, 1));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(pipeline(failing, new DurableFileWriter(path.join(dir, 'cut')))).rejects.toThrow(
      'client went away',
    );
    await new Promise((r) => setTimeout(r, 50)); // the close finishes after the rejection
    expect(openFds()).toBe(fds);
  });

  it('is destroyed while a batch is being written without touching the closed file', async () => {
    const fds = openFds();
    const rejections: unknown[] = [];
    const onRejection = (err: unknown) => rejections.push(err);
    process.on('unhandledRejection', onRejection);
    try {
      const writer = new DurableFileWriter(path.join(dir, 'destroyed'));
      writer.on('error', () => {});
      // Destroyed (as the guard does on a 413) right after a whole batch's write has started.
      const writev = writer._writev.bind(writer);
      writer._writev = (chunks, done) => {
        writev(chunks, done);
        writer.destroy(new Error('the upload went over its limit'));
      };
      writer.write(Buffer.alloc(2 * 1024 * 1024, 1));
      await new Promise((r) => writer.once('close', r));
      await new Promise((r) => setTimeout(r, 100)); // the batch write settles after the close
      expect(rejections).toEqual([]);
      expect(openFds()).toBe(fds);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});

describe('dropBytes (what a short write leaves)', () => {
  const b = (s: string) => Buffer.from(s);
  it('drops whole and partial buffers', () => {
    expect(dropBytes([b('abc'), b('de')], 0).map(String)).toEqual(['abc', 'de']);
    expect(dropBytes([b('abc'), b('de')], 2).map(String)).toEqual(['c', 'de']);
    expect(dropBytes([b('abc'), b('de')], 3).map(String)).toEqual(['de']);
    expect(dropBytes([b('abc'), b('de')], 5)).toEqual([]);
  });
});
