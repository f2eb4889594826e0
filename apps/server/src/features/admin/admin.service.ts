import {
  type AdminModelStatus,
  type AdminOverviewResponse,
  type AdminUser,
  type InviteResponse,
  type LatestAlertResponse,
  type SetAlertRequest,
  alertSeveritySchema,
} from '@inkwell/contract';
import type { Db } from '../../db/database';
import type { AccountCleanup } from '../../lib/account-cleanup';
import { badRequest, notFound } from '../../lib/http-error';
import { effectiveRole } from '../../lib/roles';
import { nowIso, utcDay } from '../../lib/time';
import type { Storage } from '../../storage/storage';
import { clearAlert, latestAlert, setAlert } from '../alerts';
import { type RegistrationPolicy, endAllSessions } from '../auth';
import { createInvitation } from '../invitations';
import { knowledgeRepo } from '../documents';
import type { Mailer } from '../mail';
import { deleteAccount } from '../users';
import { adminRepo } from './admin.repo';

/** What operators do, from the Admin page (admin.routes.ts) and from `npm run users`. */
export interface AdminDeps {
  db: Db;
  storage: Storage;
  mailer: Mailer;
  adminEmails: readonly string[];
  registration: RegistrationPolicy;
  /** Absolute address of the sign-up page, for invitation links. */
  registerUrl: string;
  promptLimit: number;
  /** AI_EMBEDDINGS_MODEL, when passages get vectors: the Admin page counts the files that have them. */
  embeddingsModel?: string;
  /** What the other features remove with an account (src/account-cleanup.ts). */
  accountCleanup: readonly AccountCleanup[];
}

/** The operator acting: their own account is off limits to disable and delete (no lock-out). */
export type Actor = { userId: number } | { cli: true };

export async function listUsers(deps: AdminDeps, onlyId?: number): Promise<AdminUser[]> {
  const rows = await adminRepo.listUsers(deps.db, utcDay(), onlyId);
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    role: effectiveRole(r, deps.adminEmails),
    created_at: r.created_at,
    last_seen_at: r.last_seen_at,
    disabled: r.disabled_at !== null,
    files: Number(r.files),
    storage_bytes: Number(r.storage_bytes),
    prompts_today: Number(r.prompts_today),
  }));
}

async function userById(deps: AdminDeps, id: number): Promise<AdminUser> {
  const [user] = await listUsers(deps, id);
  if (!user) throw notFound('User not found');
  return user;
}

function refuseSelf(actor: Actor, id: number, what: string) {
  if ('userId' in actor && actor.userId === id) {
    throw badRequest(`You cannot ${what} your own account here.`);
  }
}

/**
 * Disables or enables an account. Disabling ends every session at once: the access tokens
 * already handed out stop at their next request (the per-request session check, plugins/auth.ts)
 * and the refresh tokens stop too, on every app server sharing the database.
 */
export async function setDisabled(
  deps: AdminDeps,
  actor: Actor,
  id: number,
  disabled: boolean,
): Promise<AdminUser> {
  if (disabled) refuseSelf(actor, id, 'disable');
  if (!(await adminRepo.exists(deps.db, id))) throw notFound('User not found');
  await deps.db.transaction().execute(async (trx) => {
    await adminRepo.setDisabledAt(trx, id, disabled ? nowIso() : null);
    if (disabled) await endAllSessions(trx, id);
  });
  return userById(deps, id);
}

/** Deletes an account with everything it owns, as the user's own deletion does. */
export async function deleteUser(deps: AdminDeps, actor: Actor, id: number) {
  refuseSelf(actor, id, 'delete');
  if (!(await adminRepo.exists(deps.db, id))) throw notFound('User not found');
  await deleteAccount(deps, id);
  return { success: true as const, message: 'The account has been deleted.' };
}

/** The stored role (`npm run users -- promote|demote`); ADMIN_EMAILS, when set, overrides it. */
export async function setRole(deps: AdminDeps, id: number, role: 'operator' | 'user') {
  await adminRepo.setRole(deps.db, id, role);
}

export async function findUserId(deps: AdminDeps, email: string): Promise<number> {
  const row = await adminRepo.findIdByEmail(deps.db, email.trim().toLowerCase());
  if (!row) throw notFound(`No account with the email ${email}`);
  return row.id;
}

/** A single-use sign-up link for `email`, mailed when `send` (the page always sends). */
export async function invite(
  deps: AdminDeps,
  actor: Actor,
  email: string,
  send: boolean,
): Promise<InviteResponse> {
  if (deps.registration.mode === 'closed') {
    throw badRequest(
      'Sign-up is closed (REGISTRATION=closed): nobody could use an invitation. ' +
        'Set REGISTRATION=invite (or domain) first.',
    );
  }
  return createInvitation(
    { db: deps.db, mailer: deps.mailer, registerUrl: deps.registerUrl },
    { email, invitedBy: 'userId' in actor ? actor.userId : null, send },
  );
}

export async function overview(
  deps: AdminDeps,
  model: AdminModelStatus,
): Promise<AdminOverviewResponse> {
  return {
    registration: { mode: deps.registration.mode, domains: [...deps.registration.domains] },
    model,
    alert: await latestAlert(deps.db),
    prompt_limit: deps.promptLimit,
    search_index: await knowledgeRepo.progress(deps.db, deps.embeddingsModel),
  };
}

export function setBanner(deps: AdminDeps, input: SetAlertRequest): Promise<LatestAlertResponse> {
  const severity = alertSeveritySchema.parse(input.severity ?? 'info');
  return setAlert(deps.db, { message: input.message, severity, title: input.title });
}

export const clearBanner = (deps: AdminDeps) => clearAlert(deps.db);
