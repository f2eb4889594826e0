import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { withoutNul } from './stored-text';

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email('Invalid email address'));
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);
const nameSchema = z
  .string()
  .trim()
  .max(100, 'Name must be at most 100 characters')
  .check(withoutNul('Name'));

export const registerRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  first_name: nameSchema.optional().default(''),
  last_name: nameSchema.optional().default(''),
  /** The token of an invitation link (`/register?invite=…`), where REGISTRATION asks for one. */
  invite: z.string().min(1).max(200).optional(),
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const tokensResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  first_name: z.string(),
});
export type TokensResponse = z.infer<typeof tokensResponseSchema>;

export const refreshResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
});
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const requestPasswordResetSchema = z.object({ email: emailSchema });
export type RequestPasswordReset = z.infer<typeof requestPasswordResetSchema>;

export const resetPasswordSchema = z.object({
  token: z.string().min(1, 'Token is required').max(200),
  password: passwordSchema,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

export const PASSWORD_RESET_REQUESTED_MESSAGE =
  'If an account exists for that email, a password reset link has been sent.';
