import {
  ENGLISH_DIALECTS,
  type EnglishDialect,
  type UpdateUserRequest,
  type UserResponse,
} from '@inkwell/contract';
import type { Db } from '../../db/database';
import type { AccessTokens } from '../../lib/access-token';
import { badRequest, conflict, notFound, unauthorized } from '../../lib/http-error';
import { effectiveRole } from '../../lib/roles';
import { runAccountCleanup, type AccountCleanup } from '../../lib/account-cleanup';
import type { SignInLimit } from '../../plugins/sign-in-limit';
import { authRepo, hashPassword, verifyPasswordLimited } from '../auth';
import { personalWords } from '../dictionary';
import { toCsv } from './user-data-csv';
import { usersRepo } from './users.repo';

export interface UsersDeps {
  db: Db;
  tokens: AccessTokens;
  /** ADMIN_EMAILS: who is an operator (lib/roles.ts). */
  adminEmails: readonly string[];
  /** What the other features remove with an account (composed in src/account-cleanup.ts). */
  accountCleanup: readonly AccountCleanup[];
  /** Every check of the current password counts against the sign-in limit (AUTH_RATE_LIMIT). */
  signInLimit: SignInLimit;
}

/** A signed-in request: the user, their session and the client's address. */
export interface UserSession {
  userId: number;
  sessionId: string;
  ip: string;
}

/** Refuses (400) unless `password` is the user's current one; 429 past the sign-in limit. */
async function requirePassword(
  deps: Pick<UsersDeps, 'signInLimit'>,
  session: Pick<UserSession, 'userId' | 'ip'>,
  hash: string,
  password: string,
) {
  if (!(await verifyPasswordLimited(deps.signInLimit, session, hash, password))) {
    throw badRequest('Current password is incorrect');
  }
}

const present = (
  u: {
    first_name: string;
    last_name: string;
    email: string;
    created_at: string;
    role: string;
    english_dialect: string;
  },
  adminEmails: readonly string[],
): UserResponse => ({
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  created_at: u.created_at,
  role: effectiveRole(u, adminEmails),
  english_dialect: asDialect(u.english_dialect),
});

const asDialect = (v: string | undefined): EnglishDialect =>
  ENGLISH_DIALECTS.find((d) => d === v) ?? 'auto';

/** The English a user's texts are proofread in (their account setting). */
export async function englishDialectOf(db: Db, userId: number): Promise<EnglishDialect> {
  return asDialect((await usersRepo.findById(db, userId))?.english_dialect);
}

export async function getUser(deps: UsersDeps, userId: number): Promise<UserResponse> {
  const user = await usersRepo.findById(deps.db, userId);
  if (!user) throw notFound('User not found');
  return present(user, deps.adminEmails);
}

/**
 * Updates one field. An email change needs the current password, ends every reset link (they
 * were mailed to the old address) and answers a fresh access token for the session.
 */
export async function updateUser(deps: UsersDeps, session: UserSession, patch: UpdateUserRequest) {
  let change:
    | { first_name: string }
    | { last_name: string }
    | { email: string }
    | { english_dialect: string } = patch;
  if ('email' in patch) {
    if (!patch.current_password) {
      throw badRequest('current_password: Current password is required to change the email');
    }
    const user = await usersRepo.findById(deps.db, session.userId);
    if (!user) throw unauthorized();
    await requirePassword(deps, session, user.password_hash, patch.current_password);
    const other = await usersRepo.findIdByEmail(deps.db, patch.email);
    if (other && other.id !== session.userId) throw conflict('Email already exists');
    // An operator's address (ADMIN_EMAILS) is as good as taken: moving onto it would make anyone
    // an operator. (Its owner signs up with it; an operator may move between listed addresses.)
    const operator = effectiveRole(user, deps.adminEmails) === 'operator';
    if (!operator && deps.adminEmails.includes(patch.email)) throw conflict('Email already exists');
    change = { email: patch.email };
  }
  try {
    await usersRepo.update(deps.db, session.userId, change);
  } catch (err) {
    if (/unique/i.test(String(err))) throw conflict('Email already exists');
    throw err;
  }
  if ('email' in change) await authRepo.retireResets(deps.db, session.userId);
  const user = await getUser(deps, session.userId);
  const access_token =
    'email' in patch
      ? deps.tokens.sign({ userId: session.userId, sessionId: session.sessionId })
      : undefined;
  return {
    ...user,
    message: 'Profile updated successfully',
    ...(access_token ? { access_token } : {}),
  };
}

/** Changes the password and ends every other session. */
export async function changePassword(
  deps: UsersDeps,
  session: UserSession,
  input: { current_password: string; new_password: string },
) {
  const user = await usersRepo.findById(deps.db, session.userId);
  if (!user) throw unauthorized();
  await requirePassword(deps, session, user.password_hash, input.current_password);
  await authRepo.setPasswordHash(deps.db, user.id, await hashPassword(input.new_password));
  await deps.db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date().toISOString() })
    .where('user_id', '=', user.id)
    .where('family_id', '!=', session.sessionId)
    .where('revoked_at', 'is', null)
    .execute();
  await authRepo.retireResets(deps.db, user.id);
  return { success: true as const, message: 'Password changed successfully!' };
}

/** Everything we hold about the user, as one CSV: profile, files and chat history. */
export async function exportUserData(deps: UsersDeps, userId: number): Promise<string> {
  const user = await usersRepo.findById(deps.db, userId);
  if (!user) throw notFound('User not found');
  const [files, messages, words] = await Promise.all([
    usersRepo.listFiles(deps.db, userId),
    usersRepo.listMessages(deps.db, userId),
    personalWords(deps.db, userId),
  ]);
  const rows: (string | number)[][] = [['section', 'field', 'value', 'detail', 'created_at']];
  rows.push(['profile', 'first_name', user.first_name, '', user.created_at]);
  rows.push(['profile', 'last_name', user.last_name, '', user.created_at]);
  rows.push(['profile', 'email', user.email, '', user.created_at]);
  for (const f of files) rows.push(['file', f.type, f.file_name, `${f.size} bytes`, f.created_at]);
  for (const m of messages) rows.push(['chat', m.role, m.content, '', m.created_at]);
  // The personal dictionary: words proofreading keeps as written (no date is kept for them).
  for (const w of words) rows.push(['dictionary', 'word', w, '', '']);
  return toCsv(rows);
}

/** Refuses (400, like a wrong password on the email change) unless `password` is the user's. */
export async function checkCurrentPassword(
  deps: Pick<UsersDeps, 'db' | 'signInLimit'>,
  session: Pick<UserSession, 'userId' | 'ip'>,
  password: string,
) {
  const user = await usersRepo.findById(deps.db, session.userId);
  if (!user) throw unauthorized();
  await requirePassword(deps, session, user.password_hash, password);
}

/**
 * Removes the user and everything they own: rows (cascade), and what each feature keeps outside
 * them (`accountCleanup`: the replies being written, the jobs' inputs, the stored files...).
 */
export async function deleteAccount(
  deps: Pick<UsersDeps, 'db' | 'accountCleanup'>,
  userId: number,
) {
  await runAccountCleanup(deps.accountCleanup, 'before-rows', userId);
  await usersRepo.delete(deps.db, userId);
  await runAccountCleanup(deps.accountCleanup, 'after-rows', userId);
  return { success: true as const, message: 'Your account has been deleted.' };
}
