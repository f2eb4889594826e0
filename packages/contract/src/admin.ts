import { z } from 'zod';
import { aiStatusSchema } from './ai';
import { emailSchema } from './auth';
import { idParamsSchema } from './ids';
import { withoutNul } from './stored-text';
import { alertSeveritySchema, latestAlertResponseSchema } from './site';

/** Who may sign up (REGISTRATION): anyone, no one, holders of an invitation, or listed domains. */
export const REGISTRATION_MODES = ['open', 'closed', 'invite', 'domain'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/** Operators (ADMIN_EMAILS, or the first account when none is set) see the Admin page. */
export const USER_ROLES = ['user', 'operator'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** One account as the Admin page lists it. */
export const adminUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(USER_ROLES),
  created_at: z.string(),
  /** Last sign-in or token refresh (a refresh comes every 15 minutes of use); null: never. */
  last_seen_at: z.string().nullable(),
  disabled: z.boolean(),
  files: z.number(),
  storage_bytes: z.number(),
  prompts_today: z.number(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersResponseSchema = z.object({ users: z.array(adminUserSchema) });
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

/**
 * The model as GET /api/ai/status shows it (state, download, queue), whether it serves now, and
 * for the operator only: `detail`, the reason naming the path, setting or address to fix (null
 * when ready), and `next_retry_at`, when a failed download or server check is tried again.
 */
export const adminModelStatusSchema = aiStatusSchema.extend({
  available: z.boolean(),
  detail: z.string().nullable(),
  next_retry_at: z.string().nullable(),
});
export type AdminModelStatus = z.infer<typeof adminModelStatusSchema>;

/**
 * POST /api/admin/model/retry (operators): tries the failed download or the model server check
 * again now. `retried` is false when nothing was waiting to be retried (a model that is ready,
 * downloading, or has no retry, like a missing MODEL_PATH); `model` is the status after it.
 */
export const adminModelRetryResponseSchema = z.object({
  retried: z.boolean(),
  model: adminModelStatusSchema,
});
export type AdminModelRetryResponse = z.infer<typeof adminModelRetryResponseSchema>;

export const adminOverviewResponseSchema = z.object({
  registration: z.object({
    mode: z.enum(REGISTRATION_MODES),
    domains: z.array(z.string()),
  }),
  model: adminModelStatusSchema,
  alert: latestAlertResponseSchema,
  prompt_limit: z.number(),
  /**
   * The search index of questions across files (knowledge.ts): files indexed, unreadable, and
   * still being read (new uploads, and every file once after an upgrade, in the background);
   * with an embeddings model (AI_EMBEDDINGS_MODEL), the files whose passages have their vectors.
   */
  search_index: z
    .object({
      files: z.number().int(),
      searchable: z.number().int(),
      unreadable: z.number().int(),
      reading: z.number().int(),
      with_vectors: z.number().int().optional(),
    })
    .optional(),
});
export type AdminOverviewResponse = z.infer<typeof adminOverviewResponseSchema>;

export const adminUserIdParamsSchema = idParamsSchema;

export const inviteRequestSchema = z.object({ email: emailSchema });
export type InviteRequest = z.infer<typeof inviteRequestSchema>;

export const inviteResponseSchema = z.object({
  email: z.string(),
  /** The single-use sign-up link (also mailed), for an operator who hands it over another way. */
  link: z.string(),
  expires_at: z.string(),
  message: z.string(),
});
export type InviteResponse = z.infer<typeof inviteResponseSchema>;

export const ALERT_MESSAGE_MAX = 500;
export const ALERT_TITLE_MAX = 100;
export const setAlertRequestSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, 'Message is required')
    .max(ALERT_MESSAGE_MAX, `Message must be at most ${ALERT_MESSAGE_MAX} characters`)
    .check(withoutNul('Message')),
  severity: alertSeveritySchema.optional().default('info'),
  title: z
    .string()
    .trim()
    .max(ALERT_TITLE_MAX, `Title must be at most ${ALERT_TITLE_MAX} characters`)
    .check(withoutNul('Title'))
    .optional(),
});
export type SetAlertRequest = z.input<typeof setAlertRequestSchema>;

/**
 * GET /api/admin/contact-messages: what people sent with the contact form, newest first (at most
 * 200). `mailed_to` is CONTACT_TO when set (each message was also mailed there), else null: the
 * Admin page is then the only place they can be read.
 */
export const adminContactMessageSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  created_at: z.string(),
});
export type AdminContactMessage = z.infer<typeof adminContactMessageSchema>;
export const adminContactMessagesResponseSchema = z.object({
  messages: z.array(adminContactMessageSchema),
  mailed_to: z.string().nullable(),
});
export type AdminContactMessagesResponse = z.infer<typeof adminContactMessagesResponseSchema>;
