import { z } from 'zod';

/**
 * The largest id a stored row (a file, a user, a chat reply) can have: PostgreSQL's serial columns
 * are 32-bit. A larger number reached the database and failed the query there (a 500); checked
 * here, it is refused as any other impossible id is (400), whatever the database.
 */
export const MAX_ID = 2_147_483_647;

const MUST_BE = `must be a whole number from 1 to ${MAX_ID}`;

/** An id as JSON sends it. `message` names the field where no field path precedes it. */
export const idSchema = (message = MUST_BE) =>
  z.number({ error: message }).int(message).min(1, message).max(MAX_ID, message);

/** An id where it arrives as text: a path parameter or a form field. */
export const idTextSchema = (message = MUST_BE) =>
  z.coerce.number({ error: message }).int(message).min(1, message).max(MAX_ID, message);

/** `:id` of every route that names a stored row by its number. */
export const idParamsSchema = z.object({ id: idTextSchema() });
export type IdParams = z.infer<typeof idParamsSchema>;
