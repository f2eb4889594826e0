import { ERROR_MESSAGES } from '@inkwell/contract';

/** Errors a service throws to answer with a status; the error handler turns them into `{ error }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** For the operator only: logged by the error handler, never sent (paths, settings, hosts). */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const payloadTooLarge = (message = 'The file is too large. Please upload a smaller file.') =>
  new HttpError(413, message);
export const unsupportedMediaType = (message = 'Unsupported file type') =>
  new HttpError(415, message);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  new HttpError(
    429,
    message,
    retryAfterSeconds ? { 'retry-after': String(Math.ceil(retryAfterSeconds)) } : {},
  );
export const serviceUnavailable = (message: string) => new HttpError(503, message);
/** 507: nothing was stored for want of space; `detail` (for the log) says where it ran out. */
export const insufficientStorage = (detail?: string) =>
  new HttpError(507, ERROR_MESSAGES.storageFull, {}, detail);

/**
 * The answer to a route that does not exist. Admin routes give exactly this to a signed-in
 * non-operator, so nothing tells them apart from a mistyped address.
 */
export const routeNotFound = (method: string, url: string) =>
  new HttpError(404, `Route ${method} ${url.split('?')[0]} not found`);
