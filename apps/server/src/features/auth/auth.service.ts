import { randomUUID } from 'node:crypto';
import { type LoginRequest, type ResetPasswordRequest } from '@inkwell/contract';
import type { Db, Dialect } from '../../db/database';
import type { AccessTokens } from '../../lib/access-token';
import { conflict, forbidden, unauthorized, badRequest } from '../../lib/http-error';
import { isoIn, nowIso } from '../../lib/time';
import { consumeInvitation, findValidInvitation } from '../invitations';
import type { Mailer } from '../mail';
import { authRepo } from './auth.repo';
import { hashToken, newOpaqueToken } from '../../lib/opaque-token';
import { hashPassword, verifyPassword } from './passwords';
import { admission, type RegistrationPolicy } from './registration-policy';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const ACCOUNT_DISABLED =
  'This account has been disabled. Please contact the operator of this service.';

export interface AuthDeps {
  db: Db;
  dialect: Dialect;
  tokens: AccessTokens;
}

export interface Session {
  access_token: string;
  refresh_token: string;
}

/** Starts a session: a new refresh-token family and an access token bound to it. */
export async function startSession(
  deps: Pick<AuthDeps, 'db' | 'tokens'>,
  userId: number,
): Promise<Session> {
  return newSession(deps, userId, (row) => authRepo.insertRefreshToken(deps.db, row));
}

/**
 * Starts a session for an account whose password was checked against `checkedHash`, unless a
 * password change or reset (which ends every session) or a disabling came in meanwhile: the
 * check took the old password, and its session would outlive the revocation.
 */
async function startCheckedSession(
  deps: AuthDeps,
  user: { id: number; password_hash: string },
): Promise<Session> {
  return newSession(deps, user.id, async (row) => {
    const recorded = await authRepo.insertRefreshTokenIfUnchanged(
      deps.db,
      deps.dialect,
      row,
      user.password_hash,
    );
    if (!recorded) throw unauthorized('Invalid email or password');
  });
}

async function newSession(
  deps: Pick<AuthDeps, 'db' | 'tokens'>,
  userId: number,
  record: (row: NewRefreshToken) => Promise<unknown>,
): Promise<Session> {
  const familyId = randomUUID();
  const refresh = newOpaqueToken();
  await record({
    user_id: userId,
    family_id: familyId,
    token_hash: hashToken(refresh),
    expires_at: isoIn(REFRESH_TOKEN_TTL_MS),
  });
  const access = deps.tokens.sign({ userId, sessionId: familyId });
  await authRepo.touchLastSeen(deps.db, userId);
  return { access_token: access, refresh_token: refresh };
}

type NewRefreshToken = Parameters<typeof authRepo.insertRefreshToken>[1];

/**
 * Creates an account if REGISTRATION admits the address (with its invitation where one is
 * needed). The invitation is used, the account created and the first account recorded in one
 * transaction: a sign-up that fails gives its invitation back.
 */
export async function register(
  deps: AuthDeps & { registration: RegistrationPolicy },
  input: {
    email: string;
    password: string;
    first_name: string;
    last_name: string;
    invite?: string;
  },
) {
  const needs = admission(deps.registration, input.email, input.invite);
  const invitation =
    needs === 'invitation'
      ? await findValidInvitation(deps.db, input.invite ?? '', input.email)
      : undefined;
  if (await authRepo.findUserByEmail(deps.db, input.email)) throw conflict('Email already exists');
  const password_hash = await hashPassword(input.password);
  let user;
  try {
    user = await deps.db.transaction().execute(async (trx) => {
      if (invitation) await consumeInvitation(trx, invitation);
      const created = await authRepo.insertUser(trx, {
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        password_hash,
      });
      if (await authRepo.claimFirstAccount(trx, created.id)) {
        await authRepo.setRole(trx, created.id, 'operator');
      }
      return created;
    });
  } catch (err) {
    // Two registrations racing for one email: the unique index decides.
    if (/unique/i.test(String(err))) throw conflict('Email already exists');
    throw err;
  }
  return { ...(await startSession(deps, user.id)), first_name: user.first_name };
}

export async function login(deps: AuthDeps, input: LoginRequest) {
  const user = await authRepo.findUserByEmail(deps.db, input.email);
  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!user || !ok) throw unauthorized('Invalid email or password');
  // Told only to whoever knows the password: to anyone else a disabled account looks the same.
  if (user.disabled_at) throw forbidden(ACCOUNT_DISABLED);
  return { ...(await startCheckedSession(deps, user)), first_name: user.first_name };
}

/**
 * Rotates a refresh token. Presenting a token that was already rotated means it was stolen or
 * replayed: the whole family (session) is revoked.
 */
export async function refresh(deps: AuthDeps, refreshToken: string | undefined): Promise<Session> {
  if (!refreshToken) throw unauthorized('Refresh token required');
  const row = await authRepo.findRefreshToken(deps.db, hashToken(refreshToken));
  if (!row) throw unauthorized('Invalid refresh token');
  // Disabling revokes the sessions too; this says why, rather than "reuse detected".
  const user = await authRepo.findUserById(deps.db, row.user_id);
  if (!user || user.disabled_at) throw unauthorized(ACCOUNT_DISABLED);
  if (row.revoked_at) {
    await authRepo.revokeFamily(deps.db, row.family_id);
    throw unauthorized('Refresh token reuse detected; please sign in again');
  }
  if (row.expires_at <= nowIso()) throw unauthorized('Refresh token expired');
  if (!(await authRepo.revokeRefreshToken(deps.db, row.id))) {
    await authRepo.revokeFamily(deps.db, row.family_id);
    throw unauthorized('Refresh token reuse detected; please sign in again');
  }
  const next = newOpaqueToken();
  // Only while the password and the account are as read above: a change, reset or disabling
  // that revoked the sessions meanwhile would otherwise miss this new token.
  const rotated = await authRepo.insertRefreshTokenIfUnchanged(
    deps.db,
    deps.dialect,
    {
      user_id: row.user_id,
      family_id: row.family_id,
      token_hash: hashToken(next),
      expires_at: row.expires_at,
    },
    user.password_hash,
  );
  if (!rotated) throw unauthorized('Invalid refresh token');
  const access = deps.tokens.sign({ userId: row.user_id, sessionId: row.family_id });
  await authRepo.touchLastSeen(deps.db, row.user_id);
  return { access_token: access, refresh_token: next };
}

export const logout = (deps: AuthDeps, sessionId: string) =>
  authRepo.revokeFamily(deps.db, sessionId);

/** Ends every session of the user (an operator disabled the account). */
export const endAllSessions = (db: Db, userId: number) => authRepo.revokeAllForUser(db, userId);

/**
 * Mails a reset link to the address if it belongs to an enabled account; nothing otherwise. Run
 * after the answer was sent (the route answers the same for every address first).
 */
export async function requestPasswordReset(
  deps: AuthDeps & { mailer: Mailer; resetUrlBase: string },
  email: string,
): Promise<void> {
  const user = await authRepo.findUserByEmail(deps.db, email);
  // A disabled account gets no link (the answer stays the same, as for an unknown address).
  if (user && !user.disabled_at) {
    const token = newOpaqueToken();
    await authRepo.insertPasswordReset(deps.db, {
      user_id: user.id,
      token_hash: hashToken(token),
      expires_at: isoIn(RESET_TOKEN_TTL_MS),
    });
    const link = `${deps.resetUrlBase}reset-password?token=${encodeURIComponent(token)}`;
    await deps.mailer.send({
      to: user.email,
      subject: 'Reset your Inkwell password',
      text:
        `Hello${user.first_name ? ` ${user.first_name}` : ''},\n\n` +
        `Someone asked to reset the password of your Inkwell account. To choose a new password, open\n\n` +
        `${link}\n\nThe link works once and expires in one hour. If you did not ask for this, ignore this mail.\n`,
    });
  }
}

export async function resetPassword(deps: AuthDeps, input: ResetPasswordRequest) {
  const row = await authRepo.findPasswordReset(deps.db, hashToken(input.token));
  if (!row || row.used_at || row.expires_at <= nowIso()) {
    throw badRequest('This reset link is invalid or has expired. Please request a new one.');
  }
  if (!(await authRepo.usePasswordReset(deps.db, row.id))) {
    throw badRequest('This reset link is invalid or has expired. Please request a new one.');
  }
  await authRepo.setPasswordHash(deps.db, row.user_id, await hashPassword(input.password));
  // A new password ends every session, including a thief's, and every other reset link.
  await authRepo.revokeAllForUser(deps.db, row.user_id);
  await authRepo.retireResets(deps.db, row.user_id);
  return 'Your password has been reset. You can now sign in.';
}
