import type { RegistrationMode } from '@inkwell/contract';
import { forbidden } from '../../lib/http-error';

export interface RegistrationPolicy {
  mode: RegistrationMode;
  /** Lower-cased email domains of REGISTRATION=domain. */
  domains: readonly string[];
}

export const REGISTRATION_CLOSED = 'Sign-up is closed on this server.';
export const REGISTRATION_INVITE_ONLY =
  'Sign-up on this server is by invitation only. Please ask its operator for an invitation.';
export const registrationDomainOnly = (domains: readonly string[]) =>
  `Sign-up on this server is limited to addresses at ${domains.join(', ')}, or by invitation.`;

/**
 * Whether REGISTRATION lets this address sign up: 'admit', 'invitation' (only with a valid
 * invitation, which the caller checks), or a 403 with a message saying what would be needed.
 * An invitation admits an address outside REGISTRATION_DOMAINS; with REGISTRATION=open it is not
 * needed, and with REGISTRATION=closed nothing admits anyone.
 */
export function admission(
  policy: RegistrationPolicy,
  email: string,
  invite: string | undefined,
): 'admit' | 'invitation' {
  switch (policy.mode) {
    case 'open':
      return 'admit';
    case 'closed':
      throw forbidden(REGISTRATION_CLOSED);
    case 'invite':
      if (invite) return 'invitation';
      throw forbidden(REGISTRATION_INVITE_ONLY);
    case 'domain': {
      const domain = email.slice(email.lastIndexOf('@') + 1);
      if (policy.domains.includes(domain)) return 'admit';
      if (invite) return 'invitation';
      throw forbidden(registrationDomainOnly(policy.domains));
    }
  }
}
