import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_PROMPT_LIMIT } from '@inkwell/contract';

/**
 * The one reading of the environment. Every setting of the product is here, validated once at
 * start-up; a wrong value stops the server with a message naming the setting.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
const optionalUrl = optionalString.pipe(z.url().optional());
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const commaList = optionalString.transform((v) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
    : [],
);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  BASE_PATH: z
    .string()
    .default('/')
    .refine((v) => v.startsWith('/'), 'must start with "/"')
    .transform((v) => (v.endsWith('/') ? v : `${v}/`)),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for SQLite)')
      .optional(),
  ),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().default('Inkwell <no-reply@localhost>'),
  PUBLIC_URL: optionalUrl,
  CONTACT_TO: optionalString,
  CAPTCHA: z.enum(['altcha', 'recaptcha']).default('altcha'),
  RECAPTCHA_SECRET: optionalString,
  RECAPTCHA_SITE_KEY: optionalString,
  RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  TRUST_PROXY: optionalString,
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ANALYTICS_SCRIPT_URL: optionalUrl,
  // Files
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: optionalString,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool,
  // AI
  MODEL: optionalString,
  MODEL_PATH: optionalString,
  MODEL_DOWNLOAD: z.enum(['auto', 'off']).default('auto'),
  AI_BASE_URL: optionalUrl,
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
  PROMPT_LIMIT: z.coerce.number().int().min(1).default(DEFAULT_PROMPT_LIMIT),
  // Embedded model tuning: CPU unless a GPU type is named; parallel sequences; tokens per sequence.
  LLAMA_GPU: z.enum(['off', 'auto', 'cuda', 'vulkan', 'metal']).default('off'),
  LLAMA_SEQUENCES: z.coerce.number().int().min(1).max(16).default(2),
  LLAMA_CONTEXT: z.coerce.number().int().min(256).default(4096),
  /** Unset: one fewer than the cores (llama.cpp's spinning threads must leave the event loop a core). */
  LLAMA_THREADS: optionalString
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number().int().min(1).max(256).optional()),
  // Page analysis
  FETCH_ALLOW_HOSTS: commaList,
  CHROMIUM_PATH: optionalString,
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'JWT_SECRET'> {
  JWT_SECRET: string;
  /** Absolute DATA_DIR. */
  dataDir: string;
}

export class ConfigError extends Error {}

/** Parses an environment; throws ConfigError listing every wrong setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  if (cfg.CAPTCHA === 'recaptcha' && !cfg.RECAPTCHA_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  RECAPTCHA_SECRET: required when CAPTCHA=recaptcha',
    );
  }
  if (cfg.S3_ENDPOINT && !cfg.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when S3_ENDPOINT is set');
  }
  const dataDir = path.resolve(cfg.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return { ...cfg, dataDir, JWT_SECRET: cfg.JWT_SECRET ?? persistentSecret(dataDir) };
}

/** A secret generated on first start and kept in DATA_DIR, so tokens survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
