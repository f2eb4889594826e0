import type { Readable } from 'node:stream';
import { ERROR_MESSAGES } from '@inkwell/contract';
import { HttpError } from '../lib/http-error';

/**
 * Where file bytes live. Keys are `users/<userId>/<uuid>`, so everything of one user shares a
 * prefix. Implementations: local disk (default) and an S3-compatible object store.
 */
export interface Storage {
  /**
   * True when several app servers write to it at once (S3): an upload that looks abandoned at
   * start-up may then be another server's, still running. A local disk belongs to one app server.
   */
  readonly shared: boolean;
  /**
   * Writes a stream under key and returns the byte count. Rejects with StorageFullError when the
   * store has no room (nothing of the object is left behind), StorageUnavailableError when an
   * object store answers an error, or the body's own error. Readers see the object whole or not at
   * all; once put resolves it survives a power cut. A power cut before that may leave it partial
   * (the local disk renames before its last fsync), so the caller must hold the key as unrecorded
   * until put resolves: the upload's pending row, which the sweeps clear with its object once dead.
   */
  put(key: string, body: Readable): Promise<{ size: number }>;
  /** Reads an object; rejects with StorageNotFoundError when it does not exist. */
  get(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  /** Every key under prefix (for the start-up orphan sweep). */
  list(prefix: string): AsyncIterable<string>;
  /**
   * Start-up sweep of what uploads cut short by a crash left outside the keys (the local disk's
   * temp files); returns how many. Absent where nothing can be left (S3 aborts failed uploads).
   */
  sweepTemp?(): Promise<number>;
  /**
   * Resolves when objects can be stored (readiness); rejects with a reason an operator can act on
   * (a missing bucket, refused credentials, an unwritable folder). Gives up when `signal` aborts.
   */
  check(signal: AbortSignal): Promise<void>;
}

export class StorageNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored object at ${key}`);
    this.name = 'StorageNotFoundError';
  }
}

/** 507: the store has no room for the object (a full disk or quota, an S3 store's 507). */
export class StorageFullError extends HttpError {
  constructor(cause: unknown) {
    super(507, ERROR_MESSAGES.storageFull, {}, `storage is full: ${describe(cause)}`);
    this.name = 'StorageFullError';
    this.cause = cause;
  }
}

/** 503: the object store could not be reached or answered an error (its details are logged). */
export class StorageUnavailableError extends HttpError {
  constructor(cause: unknown) {
    super(503, ERROR_MESSAGES.storageUnavailable, {}, `storage failed: ${describe(cause)}`);
    this.name = 'StorageUnavailableError';
    this.cause = cause;
  }
}

const describe = (err: unknown) =>
  err instanceof Error ? `${err.name}: ${err.message}` : String(err);

export const userPrefix = (userId: number) => `users/${userId}/`;
