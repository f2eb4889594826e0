import { z } from 'zod';
import { USER_ROLES } from './admin';
import { emailSchema, passwordSchema } from './auth';
import { ENGLISH_DIALECTS } from './constants';
import { withoutNul } from './stored-text';

export const userResponseSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  created_at: z.string(),
  /** `operator` opens the Admin page (the server decides on every admin call). */
  role: z.enum(USER_ROLES),
  /** The English proofreading checks against (`auto`: detected per text). */
  english_dialect: z.enum(ENGLISH_DIALECTS),
});
export type UserResponse = z.infer<typeof userResponseSchema>;

const nameField = z
  .string()
  .trim()
  .max(100, 'Name must be at most 100 characters')
  .check(withoutNul('Name'));

/**
 * PUT /api/user takes exactly one field (`english_dialect` is the proofreading setting). An email change also carries the current password (the
 * server refuses it without): a stolen access token alone must not be able to move the account
 * to another mailbox and then reset its password there.
 */
export const updateUserRequestSchema = z.union([
  z.strictObject({ first_name: nameField }),
  z.strictObject({ last_name: nameField }),
  z.strictObject({
    english_dialect: z.enum(ENGLISH_DIALECTS, {
      error: `english_dialect must be one of: ${ENGLISH_DIALECTS.join(', ')}`,
    }),
  }),
  z.strictObject({ email: emailSchema, current_password: z.string().max(128).optional() }),
]);
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

export const updateUserResponseSchema = userResponseSchema.extend({
  message: z.string(),
  access_token: z.string().optional(),
});
export type UpdateUserResponse = z.infer<typeof updateUserResponseSchema>;

export const changePasswordRequestSchema = z.object({
  current_password: z.string().min(1, 'Current password is required').max(128),
  new_password: passwordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** DELETE /api/delete_account: the password again, as changing the email asks for it. */
export const deleteAccountRequestSchema = z.object({
  current_password: z.string().min(1, 'Current password is required').max(128),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

export const successResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type SuccessResponse = z.infer<typeof successResponseSchema>;
