import { passwordSchema, emailSchema } from '@inkwell/contract';

export const AUTH_MESSAGES = {
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  acceptTerms: 'Please accept the Terms of Service and Privacy Policy.',
  passwordsMismatch: 'Passwords do not match.',
  loginFailed: 'Failed to log in',
  registerFailed: 'Failed to register',
  resetRequestFailed: 'Failed to request password reset',
  resetFailed: 'Failed to reset password',
} as const;

/** Required, then a valid address (contract schema message). */
export function emailError(email: string): string | undefined {
  if (!email.trim()) return AUTH_MESSAGES.emailRequired;
  const r = emailSchema.safeParse(email);
  return r.success ? undefined : r.error.issues[0]?.message;
}

/** Required, then the contract's 8–128 character rule. */
export function newPasswordError(password: string): string | undefined {
  if (!password) return AUTH_MESSAGES.passwordRequired;
  const r = passwordSchema.safeParse(password);
  return r.success ? undefined : r.error.issues[0]?.message;
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}
