import { Transform, type TransformCallback } from 'node:stream';
import type { FileExtension } from '@inkwell/contract';
import type { HttpError } from '../../lib/http-error';
import { unsupportedMediaType } from '../../lib/http-error';
import {
  HEAD_BYTES,
  TAIL_BYTES,
  headMatches,
  isZipType,
  zipEntryNames,
  zipMatches,
} from './content-sniff';

/**
 * What each stage between the request and the storage may hold. With Node's 16 KB default every
 * 64 KB socket read overfilled the stages and paused the request until the disk caught up; this
 * lets reading go on while a write is in flight. Bounded, so memory stays far below the file size.
 */
export const UPLOAD_STREAM_BUFFER_BYTES = 256 * 1024;

/**
 * Sits between the upload and the storage: counts bytes and fails the moment the cap is passed (so
 * an oversized body is never stored whole), checks the magic bytes as soon as it has them, and
 * keeps only the last TAIL_BYTES of a zip to check its entries at the end. Memory stays bounded.
 */
export class UploadGuard extends Transform {
  bytes = 0;
  private head: Buffer[] = [];
  private headLen = 0;
  private headChecked = false;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private endGate: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly type: FileExtension,
    private cap: number,
    private overCap: () => HttpError,
  ) {
    super({ highWaterMark: UPLOAD_STREAM_BUFFER_BYTES });
  }

  /** A smaller cap, learnt after the bytes began to flow; fails at once if they already passed it. */
  lowerCap(cap: number, overCap: () => HttpError): void {
    this.cap = Math.min(this.cap, cap);
    this.overCap = overCap;
    if (this.bytes > this.cap) this.destroy(overCap());
  }

  /** The stream ends only once `gate` has resolved, and fails with its error if it rejects. */
  holdEndUntil(gate: Promise<unknown>): void {
    this.endGate = gate;
    gate.catch((err: Error) => this.destroy(err)); // at once: no point storing more
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.cap) return done(this.overCap());
    if (!this.headChecked) {
      this.head.push(chunk);
      this.headLen += chunk.length;
      if (this.headLen >= HEAD_BYTES && !this.checkHead()) return done(unsupportedMediaType());
    }
    if (isZipType(this.type)) this.keepTail(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.endGate.then(() => this.finalChecks(done), done);
  }

  private finalChecks(done: TransformCallback): void {
    if (this.bytes === 0) return done(); // the service answers 400 for an empty file
    if (!this.headChecked && !this.checkHead()) return done(unsupportedMediaType());
    if (isZipType(this.type) && !zipMatches(this.type, zipEntryNames(Buffer.concat(this.tail)))) {
      return done(unsupportedMediaType());
    }
    done();
  }

  private checkHead(): boolean {
    this.headChecked = true;
    const head = Buffer.concat(this.head).subarray(0, HEAD_BYTES);
    this.head = [];
    return head.length > 0 && headMatches(this.type, head);
  }

  private keepTail(chunk: Buffer): void {
    this.tail.push(chunk);
    this.tailLen += chunk.length;
    while (this.tail.length > 1 && this.tailLen - this.tail[0]!.length >= TAIL_BYTES) {
      this.tailLen -= this.tail.shift()!.length;
    }
  }
}
