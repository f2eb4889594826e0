import { z } from 'zod';

// A missing field reads "email: Required" rather than zod's type-level wording.
z.config({
  customError: (iss) =>
    iss.code === 'invalid_type' && iss.input === undefined ? 'Required' : undefined,
});

/** The one error shape every endpoint answers with. */
export const errorResponseSchema = z.object({ error: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** A plain confirmation, e.g. `{ "message": "Logged out" }`. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** Texts of spec §8 that the server and the client share. */
export const ERROR_MESSAGES = {
  rateLimited: 'Rate limit exceeded. Please wait before retrying.',
  fileTooLarge: 'The file is too large. Please upload a smaller file.',
  unauthorized: 'Authentication required',
  invalidToken: 'Invalid or expired token',
  notFound: 'Not found',
  /** 400: a value the database cannot store or compare (a number too large, a NUL character). */
  invalidValue:
    'The request holds a value that cannot be stored (a number too large, or a character not allowed).',
  internal: 'An internal error occurred. Please try again later.',
  /** 507: a write failed for want of space (a full disk or database, a full object store). */
  storageFull:
    'The server has no room left to store this, so nothing was saved. Please try again later.',
  /** 503: the object store (S3) could not be reached or answered an error. */
  storageUnavailable: 'File storage is not available right now. Please try again later.',
  /** 503: the database could not serve for a moment (restarting, connections cut, locked). */
  databaseUnavailable:
    'The service is briefly unavailable. Nothing was changed. Please try again in a moment.',
} as const;
