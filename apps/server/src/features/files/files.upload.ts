import { randomUUID } from 'node:crypto';
import { finished, type Readable } from 'node:stream';
import {
  ACCOUNT_QUOTA_BYTES,
  ERROR_MESSAGES,
  FILE_SIZE_LIMITS,
  fileSizeLimitText,
  UPLOAD_SUCCESS_MESSAGE,
  type UploadFileResponse,
} from '@inkwell/contract';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../lib/http-error';
import { formReadError } from '../../lib/multipart-form';
import { userPrefix } from '../../storage/storage';
import { allowedExtension, cleanUploadBase, uniqueName } from './file-names';
import { filesRepo, isUniqueViolation } from './files.repo';
import { toItem, type FilesDeps } from './files.service';
import { UploadGuard } from './upload-guard';
import {
  UPLOAD_LEASE,
  deadBefore,
  keepReservationAlive,
  uploadInterrupted,
  type UploadLease,
} from './upload-lease';

/** How often a failed upload tries again to give its reservation back (see dropReservation). */
const RESERVATION_RETRY_MS = 1000;

export const QUOTA_EXCEEDED_MESSAGE =
  'Your storage is full (100 MB per account). Delete some files to upload more.';

export interface IncomingUpload {
  filename: string;
  /** The multipart file stream; `truncated` is set when the global multipart limit cut it. */
  file: Readable & { truncated?: boolean };
  /** Content-Length of the request, an upper bound of the file size, when the client sent one. */
  contentLength?: number;
}

/**
 * Streams one upload into storage. The bytes are reserved against the quota (atomically, in the
 * database) while the first of them already flow to storage: the stream is cut at the type limit,
 * and at the reservation once it is known; the content is sniffed on the way; the stream does not
 * end before the reservation's row exists, so no stored object is ever without its row. Only then
 * does the row get its real name and size. Any failure removes both the object and the row.
 */
export async function uploadFile(
  deps: FilesDeps,
  userId: number,
  upload: IncomingUpload,
): Promise<UploadFileResponse> {
  const type = allowedExtension(upload.filename);
  if (!type) {
    upload.file.resume(); // drain, so the client can read our answer
    throw unsupportedMediaType();
  }
  const limit = FILE_SIZE_LIMITS[type];
  const lease = deps.lease ?? UPLOAD_LEASE;
  const storageKey = `${userPrefix(userId)}${randomUUID()}`;
  // Not awaited before storing: the reservation's transaction costs about a millisecond, and the
  // disk, which an upload waits for, can start on the first bytes meanwhile.
  const reservation = filesRepo.reserve(deps.db, deps.dialect, {
    userId,
    type,
    storageKey,
    wanted: Math.min(limit, upload.contentLength ?? limit),
    quota: deps.quotaBytes ?? ACCOUNT_QUOTA_BYTES,
    deadBefore: deadBefore(lease),
  });
  // The spec's 413 text, then the type's own limit.
  const tooLarge = () =>
    payloadTooLarge(`${ERROR_MESSAGES.fileTooLarge} ${fileSizeLimitText(type)}`);
  const guard = new UploadGuard(type, limit, tooLarge);
  guard.holdEndUntil(
    reservation.then((r) => {
      if (!r) throw payloadTooLarge(QUOTA_EXCEEDED_MESSAGE);
      // Passing a reservation smaller than the type limit means the quota, not the type, ran out.
      if (r.reserved < limit)
        guard.lowerCap(r.reserved, () => payloadTooLarge(QUOTA_EXCEEDED_MESSAGE));
    }),
  );
  // An error of the incoming stream is the request's (a form cut short): a 400, not ours. A client
  // that goes away makes the parser destroy the stream without an error, and pipe() then never
  // ends the guard: finished() reports that premature close too, so the upload fails at once.
  finished(upload.file, (err) => {
    if (err) guard.destroy(formReadError(err));
  });
  guard.on('error', () => {
    // Stop storing, but keep reading the request body so the client gets the error response.
    upload.file.unpipe(guard);
    upload.file.resume();
  });
  upload.file.pipe(guard);
  const alive = keepReservationAlive(deps.db, lease, reservation, (err) => guard.destroy(err));
  try {
    await deps.storage.put(storageKey, guard);
    alive.stop(); // finalizing ends the reservation; a refresh racing it would take that for a loss
    const { id } = (await reservation)!; // no reservation failed the stream, so put threw
    if (upload.file.truncated) throw tooLarge();
    if (guard.bytes === 0) throw badRequest('The file is empty');
    const base = cleanUploadBase(upload.filename, type);
    const file = await finalizeWithUniqueName(deps, userId, id, base, type, guard.bytes);
    return { message: UPLOAD_SUCCESS_MESSAGE, file: toItem(file) };
  } catch (err) {
    await deps.storage.delete(storageKey).catch(() => {});
    const reserved = await reservation.catch(() => null);
    if (reserved) await dropReservation(deps, lease, reserved.id, storageKey);
    throw err;
  } finally {
    alive.stop();
  }
}

/**
 * Gives a failed upload's reserved quota back. On a full disk that write can fail too (the
 * database has no room for it either): it is tried again every second in the background, so
 * the quota returns as soon as there is room, not only when the sweep finds the row dead.
 */
async function dropReservation(deps: FilesDeps, lease: UploadLease, id: number, key: string) {
  const drop = () => filesRepo.deleteRowOf(deps.db, id, key);
  if (
    await drop().then(
      () => true,
      () => false,
    )
  )
    return;
  const giveUpAt = Date.now() + lease.deadAfterMs;
  const retry = setInterval(() => {
    void drop().then(
      () => clearInterval(retry),
      () => Date.now() > giveUpAt && clearInterval(retry), // the sweep takes it from here
    );
  }, RESERVATION_RETRY_MS);
  retry.unref();
}

/** Two uploads of the same name may race for `name (1)`; the unique index decides, we retry. */
async function finalizeWithUniqueName(
  deps: FilesDeps,
  userId: number,
  id: number,
  base: string,
  type: Parameters<typeof uniqueName>[1],
  size: number,
) {
  for (let attempt = 0; ; attempt++) {
    const name = uniqueName(base, type, await filesRepo.names(deps.db, userId));
    try {
      const file = await filesRepo.finalize(deps.db, id, name, size);
      if (!file) throw uploadInterrupted(); // the reservation was swept as dead
      return file;
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 20) throw err;
    }
  }
}
