import type { UserRole } from '@inkwell/contract';

/**
 * The role a user has now. With ADMIN_EMAILS set, exactly the listed addresses are operators
 * (read from the configuration on every request, so a restart with a new list takes effect);
 * without it, the first account ever created (its stored role) is.
 */
export function effectiveRole(
  user: { email: string; role: string },
  adminEmails: readonly string[],
): UserRole {
  if (adminEmails.length > 0) return adminEmails.includes(user.email) ? 'operator' : 'user';
  return user.role === 'operator' ? 'operator' : 'user';
}
