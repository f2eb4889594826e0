import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { payloadTooLarge } from '../../lib/http-error';
import { UploadGuard } from './upload-guard';

const pdf = (size: number) =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 9, 32)]);
const sink = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });

describe('UploadGuard', () => {
  it('does not end before the gate opens, so storage cannot finish first', async () => {
    const guard = new UploadGuard('pdf', 1024 * 1024, () => payloadTooLarge());
    let open!: () => void;
    guard.holdEndUntil(new Promise<void>((resolve) => (open = resolve)));
    const source = new PassThrough();
    let finished = false;
    const done = pipeline(source, guard, sink()).then(() => (finished = true));
    source.end(pdf(4096));
    await new Promise((r) => setTimeout(r, 50));
    expect(finished).toBe(false);
    open();
    await done;
    expect(guard.bytes).toBe(4096);
  });

  it('fails with the gate’s error when the gate rejects', async () => {
    const guard = new UploadGuard('pdf', 1024 * 1024, () => payloadTooLarge());
    guard.holdEndUntil(Promise.reject(payloadTooLarge('Your storage is full')));
    const source = new PassThrough();
    const done = pipeline(source, guard, sink());
    source.write(pdf(4096));
    await expect(done).rejects.toThrow('Your storage is full');
  });

  it('fails at once when a lower cap comes after more bytes than it allows', async () => {
    const guard = new UploadGuard('pdf', 1024 * 1024, () => payloadTooLarge());
    const source = new PassThrough();
    const done = pipeline(source, guard, sink());
    source.write(pdf(8192));
    await new Promise((r) => setImmediate(r));
    guard.lowerCap(4096, () => payloadTooLarge('quota'));
    await expect(done).rejects.toThrow('quota');
  });

  it('applies a lower cap to the bytes still to come', async () => {
    const guard = new UploadGuard('pdf', 1024 * 1024, () => payloadTooLarge());
    guard.lowerCap(10_000, () => payloadTooLarge('quota'));
    const source = new PassThrough();
    const done = pipeline(source, guard, sink());
    source.write(pdf(8192));
    source.end(Buffer.alloc(4096, 32));
    await expect(done).rejects.toThrow('quota');
  });
});
