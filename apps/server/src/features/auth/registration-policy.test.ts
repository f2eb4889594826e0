import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error';
import {
  admission,
  REGISTRATION_CLOSED,
  REGISTRATION_INVITE_ONLY,
  registrationDomainOnly,
  type RegistrationPolicy,
} from './registration-policy';

const refusal = (policy: RegistrationPolicy, email: string, invite?: string) => {
  try {
    return admission(policy, email, invite);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return [(err as HttpError).statusCode, (err as HttpError).message];
  }
};

describe('REGISTRATION: who may sign up', () => {
  it('open admits anyone and needs no invitation', () => {
    const open = { mode: 'open', domains: [] } as const;
    expect(admission(open, 'a@anywhere.test', undefined)).toBe('admit');
    expect(admission(open, 'a@anywhere.test', 'some-token')).toBe('admit');
  });

  it('closed refuses everyone, invited or not, with 403 and a clear message', () => {
    const closed = { mode: 'closed', domains: [] } as const;
    expect(refusal(closed, 'a@x.test')).toEqual([403, REGISTRATION_CLOSED]);
    expect(refusal(closed, 'a@x.test', 'token')).toEqual([403, REGISTRATION_CLOSED]);
  });

  it('invite admits only with an invitation (which the caller then checks)', () => {
    const invite = { mode: 'invite', domains: [] } as const;
    expect(refusal(invite, 'a@x.test')).toEqual([403, REGISTRATION_INVITE_ONLY]);
    expect(admission(invite, 'a@x.test', 'token')).toBe('invitation');
  });

  it('domain admits the listed domains exactly, and others only with an invitation', () => {
    const policy = { mode: 'domain', domains: ['example.com', 'example.org'] } as const;
    expect(admission(policy, 'ada@example.com', undefined)).toBe('admit');
    expect(admission(policy, 'ada@example.org', 'token')).toBe('admit');
    for (const outsider of [
      'ada@sub.example.com',
      'ada@example.com.evil.test',
      'ada@xexample.com',
    ]) {
      expect(refusal(policy, outsider), outsider).toEqual([
        403,
        registrationDomainOnly(policy.domains),
      ]);
    }
    expect(admission(policy, 'ada@elsewhere.test', 'token')).toBe('invitation');
    expect(registrationDomainOnly(policy.domains)).toBe(
      'Sign-up on this server is limited to addresses at example.com, example.org, or by invitation.',
    );
  });
});
