import { contactRequestSchema, type ContactRequest } from '@inkwell/contract';

export const CONTACT_MESSAGES = {
  notRobot: 'Please verify that you are not a robot.',
  failed: 'Failed to submit the form. Please try again.',
  thanks: 'Thank you for contacting us! We will get back to you soon.',
} as const;

export type ContactErrors = Partial<Record<keyof ContactRequest, string>>;

/** Field errors from the contract schema; the captcha error has the spec's text. */
export function validateContact(values: ContactRequest): ContactErrors {
  const result = contactRequestSchema.safeParse(values);
  if (result.success) return {};
  const errors: ContactErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof ContactRequest;
    errors[field] ??= field === 'recaptchaToken' ? CONTACT_MESSAGES.notRobot : issue.message;
  }
  if (errors.email && !values.email.trim()) errors.email = 'Email is required';
  return errors;
}
