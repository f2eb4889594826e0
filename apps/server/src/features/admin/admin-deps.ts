import type { Settings } from '../../config';
import type { Db } from '../../db/database';
import { publicAppUrl } from '../../lib/public-url';
import type { Storage } from '../../storage/storage';
import type { Mailer } from '../mail';
import type { AdminDeps } from './admin.service';

/**
 * The same dependencies for the Admin page's routes and for `npm run users`, but what deleting an
 * account removes, which each adds (src/account-cleanup.ts).
 */
export function adminDeps(
  config: Settings,
  services: { db: Db; storage: Storage; mailer: Mailer },
): Omit<AdminDeps, 'accountCleanup'> {
  return {
    ...services,
    adminEmails: config.ADMIN_EMAILS,
    registration: { mode: config.REGISTRATION, domains: config.REGISTRATION_DOMAINS },
    registerUrl: `${publicAppUrl(config)}register`,
    promptLimit: config.PROMPT_LIMIT,
    embeddingsModel: (config.AI_BASE_URL && config.AI_EMBEDDINGS_MODEL) || undefined,
  };
}
