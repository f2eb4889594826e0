import { z } from 'zod';
import { withoutNul } from './stored-text';

/**
 * The web app's screens (spec §2), as paths under the base path. The server answers any other
 * path under the base with HTTP 404 (and the app, which draws its 404 page); these get 200, and
 * /account too for a signed-out visitor, whom the app sends on to /login.
 */
export const APP_ROUTES = [
  '/',
  '/login',
  '/register',
  '/reset-password',
  '/faq',
  '/about',
  '/account',
  '/admin',
] as const;

export const ALERT_SEVERITIES = ['success', 'info', 'warning', 'error'] as const;
export const alertSeveritySchema = z.enum(ALERT_SEVERITIES);
export type AlertSeverity = z.infer<typeof alertSeveritySchema>;

export const latestAlertResponseSchema = z.object({
  message: z.string(),
  severity: alertSeveritySchema,
  title: z.string().optional(),
  isVisible: z.boolean(),
});
export type LatestAlertResponse = z.infer<typeof latestAlertResponseSchema>;

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
/** Client log line; `level` is accepted in any case and normalised to capitals. */
export const clientLogRequestSchema = z.object({
  message: z.string().max(4000),
  level: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(LOG_LEVELS))
    .optional()
    .default('INFO'),
});
export type ClientLogRequest = z.input<typeof clientLogRequestSchema>;

export const contactRequestSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200).check(withoutNul('Name')),
  email: z.string().trim().max(254).pipe(z.email('Invalid email address')),
  message: z.string().trim().min(1, 'Message is required').max(5000).check(withoutNul('Message')),
  recaptchaToken: z.string().min(1, 'Please verify that you are not a robot.').max(10000),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;

export const CAPTCHA_PROVIDERS = ['altcha', 'recaptcha'] as const;
export const captchaChallengeResponseSchema = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  maxnumber: z.number().optional(),
  salt: z.string(),
  signature: z.string(),
});
export type CaptchaChallengeResponse = z.infer<typeof captchaChallengeResponseSchema>;

/** Public client configuration the web app reads at start-up. */
export const clientConfigResponseSchema = z.object({
  captcha: z.enum(CAPTCHA_PROVIDERS),
  recaptchaSiteKey: z.string().optional(),
  analyticsScriptUrl: z.string().optional(),
  promptLimit: z.number(),
});
export type ClientConfigResponse = z.infer<typeof clientConfigResponseSchema>;

/**
 * GET /api/region (public): the visitor's country from the offline GeoIP database, null when it
 * is unknown (a private or loopback address): always 200, so no page load logs an error.
 */
export const regionResponseSchema = z.object({ country: z.string().nullable() });
export type RegionResponse = z.infer<typeof regionResponseSchema>;

/**
 * GET /api/health and /api/ready (public): ok or not, with at most a one-word reason per part;
 * never a path, a setting or an internal address (the log and the Admin page have those).
 *   model    `ok`, or the model's state: downloading, loading, unavailable, unreachable.
 *   storage  readiness only: `ok`, or `unavailable` (e.g. the S3 bucket does not exist).
 */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'error']),
  model: z.enum(['ok', 'downloading', 'loading', 'unavailable', 'unreachable']),
  storage: z.enum(['ok', 'unavailable']).optional(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
