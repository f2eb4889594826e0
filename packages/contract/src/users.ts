import { z } from 'zod';
import { emailSchema, passwordSchema } from './auth';

export const userResponseSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  created_at: z.string(),
});
export type UserResponse = z.infer<typeof userResponseSchema>;

const nameField = z.string().trim().max(100, 'Name must be at most 100 characters');

/** PUT /api/user takes exactly one field. */
export const updateUserRequestSchema = z.union([
  z.strictObject({ first_name: nameField }),
  z.strictObject({ last_name: nameField }),
  z.strictObject({ email: emailSchema }),
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

export const successResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type SuccessResponse = z.infer<typeof successResponseSchema>;
