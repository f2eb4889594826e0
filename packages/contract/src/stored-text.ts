import { z } from 'zod';

/**
 * A check for text the server stores: PostgreSQL's text type cannot hold NUL (U+0000), and such a
 * value failed the query there (a 500). `subject` starts the message, as the field's other
 * messages do ("Name must not contain…").
 */
export const withoutNul = (subject: string) =>
  z.refine<string>(
    (v) => !v.includes('\u0000'),
    `${subject} must not contain the NUL character (U+0000)`,
  );
