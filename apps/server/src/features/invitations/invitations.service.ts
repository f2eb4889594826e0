import type { InviteResponse } from '@inkwell/contract';
import type { Db } from '../../db/database';
import { badRequest, conflict } from '../../lib/http-error';
import { isoIn, nowIso } from '../../lib/time';
import { hashToken, newOpaqueToken } from '../../lib/opaque-token';
import type { Mailer } from '../mail';
import { invitationsRepo } from './invitations.repo';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const INVITATION_INVALID =
  'This invitation is invalid or has expired. Please ask for a new one.';
export const INVITATION_OTHER_EMAIL =
  'This invitation is for another email address. Sign up with the address it was sent to.';

export interface InvitationDeps {
  db: Db;
  mailer: Mailer;
  /** Absolute address of the sign-up page, e.g. https://inkwell.example.com/register */
  registerUrl: string;
}

/**
 * Creates a single-use sign-up link for one address, valid for a week; mails it when `send`.
 * The link is also answered, for an operator who hands it over another way (the CLI prints it).
 */
export async function createInvitation(
  deps: InvitationDeps,
  input: { email: string; invitedBy: number | null; send: boolean },
): Promise<InviteResponse> {
  if (await invitationsRepo.accountExists(deps.db, input.email)) {
    throw conflict('An account with this email already exists');
  }
  const token = newOpaqueToken();
  const expires_at = isoIn(INVITATION_TTL_MS);
  await invitationsRepo.insert(deps.db, {
    email: input.email,
    token_hash: hashToken(token),
    invited_by: input.invitedBy,
    expires_at,
  });
  const query = new URLSearchParams({ invite: token, email: input.email });
  const link = `${deps.registerUrl}?${query.toString()}`;
  if (input.send) {
    await deps.mailer.send({
      to: input.email,
      subject: 'Your invitation to Inkwell',
      text:
        `Hello,\n\nYou are invited to create an account on Inkwell, an AI content assistant. ` +
        `To sign up with this address, open\n\n${link}\n\n` +
        `The link works once and expires in 7 days. If you did not expect it, ignore this mail.\n`,
    });
  }
  return {
    email: input.email,
    link,
    expires_at,
    message: input.send
      ? `Invitation sent to ${input.email}.`
      : `Invitation created for ${input.email}.`,
  };
}

export type ValidInvitation = { id: number; email: string };

/** The open invitation of `token` for `email`, or a clear 400. Consumes nothing. */
export async function findValidInvitation(
  db: Db,
  token: string,
  email: string,
): Promise<ValidInvitation> {
  const row = await invitationsRepo.findByTokenHash(db, hashToken(token));
  if (!row || row.used_at || row.expires_at <= nowIso()) throw badRequest(INVITATION_INVALID);
  if (row.email !== email) throw badRequest(INVITATION_OTHER_EMAIL);
  return { id: row.id, email: row.email };
}

/**
 * Uses the invitation inside the sign-up's transaction (a failed sign-up gives it back), and
 * ends the address's other invitations. A concurrent sign-up that used it first wins.
 */
export async function consumeInvitation(trx: Db, invitation: ValidInvitation): Promise<void> {
  if (!(await invitationsRepo.use(trx, invitation.id))) throw badRequest(INVITATION_INVALID);
  await invitationsRepo.retireForEmail(trx, invitation.email);
}
