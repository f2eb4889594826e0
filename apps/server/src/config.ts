import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_PROMPT_LIMIT, REGISTRATION_MODES } from '@inkwell/contract';
import { findChromium } from './lib/find-chromium';
import { traineddataFile } from './lib/ocr-data';
import { ConfigError, PROJECT_ROOT, readEnvironment } from './environment';
import { isAddressOrCidr, LOOPBACK } from './lib/address-list';
import { CPU_TASK_NAMES, type CpuTaskName } from './workers/cpu-task-limits';

export { ConfigError };

/**
 * The one reading of the environment. Every setting of the product is here, validated once at
 * start-up; a wrong value stops the server with a message naming the setting. The server, the
 * worker and the CLIs read it the same way: `.env` under the real environment (environment.ts),
 * a relative DATA_DIR from the project root.
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

/** A comma list whose every entry passes `ok`; the error names the first entry that does not. */
const listOf =
  (ok: (entry: string) => boolean, what: string) => (list: string[], ctx: z.RefinementCtx) => {
    const bad = list.find((entry) => !ok(entry));
    if (bad !== undefined)
      ctx.addIssue({ code: 'custom', message: `must be ${what} ("${bad}" is not)` });
  };
const isEmail = (v: string) => z.email().safeParse(v).success;
const isDomain = (v: string) =>
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(v);
const emailList = commaList.superRefine(listOf(isEmail, 'a comma list of email addresses'));
const domainList = commaList.superRefine(
  listOf(isDomain, 'a comma list of domain names (example.com)'),
);
/** Unset: loopback only; `none`: no address (METRICS_TOKEN only). */
const addressList = optionalString
  .transform((v) => {
    if (v === undefined) return LOOPBACK;
    if (v.toLowerCase() === 'none') return [];
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  })
  .superRefine(listOf(isAddressOrCidr, 'a comma list of addresses or CIDRs, or none'));
/** Default of SUMMARY_MAX_TOKENS: 10 MB summarized in ~5 min on a CPU model (bench/REPORT.md). */
export const DEFAULT_SUMMARY_MAX_TOKENS = 32_000;

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
  /** A request body that receives no byte for this long is given up (0: never); see body-stall.ts. */
  BODY_STALL_TIMEOUT_MS: z.coerce.number().int().min(0).default(120_000),
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  // Argon2id's cost for new password hashes; lower only for tests (README "Settings").
  PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(1024).max(4_194_304).default(65536),
  PASSWORD_HASH_PASSES: z.coerce.number().int().min(1).max(20).default(3),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
  ),
  // Accounts and access (an instance on the internet: README "Running it on the internet")
  REGISTRATION: z.enum(REGISTRATION_MODES).default('open'),
  REGISTRATION_DOMAINS: domainList,
  ADMIN_EMAILS: emailList,
  METRICS_ALLOW: addressList,
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, 'must be at least 16 characters').optional(),
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
  /** An embeddings model on the AI_BASE_URL server: questions rank passages by BM25 and vectors. */
  AI_EMBEDDINGS_MODEL: optionalString,
  /** The OpenAI-compatible model's context window in tokens; every action budgets with it. */
  AI_CONTEXT_TOKENS: z.coerce.number().int().min(512).default(8192),
  /** Calls sent to the OpenAI-compatible server at once; the rest wait in our own queue. */
  AI_PARALLEL: z.coerce.number().int().min(1).max(64).default(1),
  /** Interactive calls may interrupt batch calls when every slot is busy. */
  AI_PREEMPT: z
    .enum(['on', 'off', 'true', 'false'])
    .default('on')
    .transform((v) => v === 'on' || v === 'true'),
  /**
   * The OpenAI-compatible server's slots share one processor (llama.cpp on a CPU): while a
   * person's prompt is evaluated, document calls yield (cancelled, resumed from the prompt cache),
   * within AI_PREEMPT's budget. `off` for a server whose slots do not slow each other.
   */
  AI_YIELD_TO_PEOPLE: z
    .enum(['on', 'off', 'true', 'false'])
    .default('on')
    .transform((v) => v === 'on' || v === 'true'),
  /**
   * Send llama.cpp server's `cache_prompt: true` and, with AI_PARALLEL ≥ 2, `id_slot` (people's
   * calls in slot 0; AI_PARALLEL must then match the server's `-np`); off for servers that refuse
   * unknown fields.
   */
  AI_CACHE_PROMPT: z
    .enum(['on', 'off', 'true', 'false'])
    .default('on')
    .transform((v) => v === 'on' || v === 'true'),
  /** How long a call that arrives while the model loads waits for it. */
  AI_LOAD_WAIT_MS: z.coerce.number().int().min(0).default(120_000),
  PROMPT_LIMIT: z.coerce.number().int().min(1).default(DEFAULT_PROMPT_LIMIT),
  /** Most tokens of a document the model reads for a summary (mode=bounded); see extractive/. */
  SUMMARY_MAX_TOKENS: z.coerce.number().int().min(500).default(DEFAULT_SUMMARY_MAX_TOKENS),
  /** Most passage tokens a question's prompt gets; unset: a quarter of the model's context. */
  ASK_MAX_PASSAGE_TOKENS: optionalString.pipe(
    z.coerce.number<string | undefined>().int().min(64).optional(),
  ),
  // Embedded model tuning: CPU unless a GPU type is named; parallel sequences; tokens per sequence.
  LLAMA_GPU: z.enum(['off', 'auto', 'cuda', 'vulkan', 'metal']).default('off'),
  /** `auto`: as many as the memory the model leaves allows (features/ai/engine/llama/sequence-sizing.ts). */
  LLAMA_SEQUENCES: z
    .union([z.literal('auto'), z.coerce.number().int().min(1).max(16)])
    .default('auto'),
  LLAMA_CONTEXT: z.coerce.number().int().min(256).default(4096),
  /** Unset: one fewer than the cores (llama.cpp's spinning threads must leave the event loop a core). */
  LLAMA_THREADS: optionalString
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number().int().min(1).max(256).optional()),
  // Jobs (long AI work)
  /** Whether this process runs jobs (with SQLite it always does: it is the only process). */
  JOB_WORKER: z
    .enum(['on', 'off', 'true', 'false'])
    .default('on')
    .transform((v) => v === 'on' || v === 'true'),
  /** Jobs one process runs at once (their model calls still take turns in the scheduler). */
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** Jobs of one user (or anonymous address) running at once, across every process. */
  JOBS_PER_USER: z.coerce.number().int().min(1).max(256).default(2),
  /** Jobs of one user waiting to start; one more is refused with a 429 (nothing stored). */
  JOBS_QUEUED_PER_USER: z.coerce.number().int().min(1).max(10_000).default(20),
  /** A running job whose process has been silent this long is resumed by another one. */
  JOB_STALE_MS: z.coerce.number().int().min(500).default(30_000),
  /** Where `npm run worker` answers its health check. */
  WORKER_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** PostgreSQL schema of pg-boss's tables. */
  JOB_QUEUE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a plain lower-case identifier')
    .default('pgboss'),
  // Documents: OCR of scanned pdf pages (tesseract.js; each language's traineddata is the npm
  // package @tesseract.js-data/<code>, read from disk, never downloaded)
  OCR: z.enum(['on', 'off']).default('on'),
  OCR_LANGUAGES: optionalString
    .transform((v) => v ?? 'eng')
    .pipe(z.string())
    .transform((v) =>
      v
        .split(/[,+]/)
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .superRefine(
      listOf(
        (code) => traineddataFile(code) !== undefined,
        'languages whose package @tesseract.js-data/<code> is installed (npm install @tesseract.js-data/deu)',
      ),
    ),
  // CPU work (workers/cpu-pool.ts): worker threads of each lane, and each task's time limit
  /** Signed-in users' lane (documents, their analyses). Default: a worker per core, at most 4. */
  CPU_WORKERS: z.coerce.number<string | undefined>().int().min(1).max(64).optional(),
  /** Anonymous page analyses' lane. Default: half of CPU_WORKERS, at least 1. */
  CPU_WORKERS_ANONYMOUS: z.coerce.number<string | undefined>().int().min(1).max(64).optional(),
  /** `task=seconds,…` over the defaults (workers/cpu-task-limits.ts), e.g. `axeInJsdom=120`. */
  CPU_TASK_TIME_LIMITS: optionalString.transform((v, ctx) => {
    const limits: Partial<Record<CpuTaskName, number>> = {};
    for (const entry of v ? v.split(',') : []) {
      const [name = '', seconds = ''] = entry.split('=').map((p) => p.trim());
      if (
        !(CPU_TASK_NAMES as string[]).includes(name) ||
        !/^\d+(\.\d+)?$/.test(seconds) ||
        !(Number(seconds) > 0)
      ) {
        ctx.addIssue({
          code: 'custom',
          message: `must be task=seconds entries, tasks among ${CPU_TASK_NAMES.join(', ')} ("${entry.trim()}" is not)`,
        });
        return z.NEVER;
      }
      limits[name as CpuTaskName] = Number(seconds);
    }
    return limits;
  }),
  /**
   * `auto`: a pdf's text layer is read by poppler's pdftotext when it is on PATH (native speed),
   * else by pdf.js; `pdfjs`: always pdf.js.
   */
  PDF_READER: z.enum(['auto', 'pdfjs']).default('auto'),
  /**
   * `on`: every process that runs jobs starts the grammar checker (Harper) when it starts, so the
   * first proofread's findings come in seconds; `off`: on the first proofread.
   */
  PROOFREAD_WARM_UP: z.enum(['on', 'off']).default('on'),
  // Page analysis
  FETCH_ALLOW_HOSTS: commaList,
  /**
   * The Chromium that renders analysed pages. Unset, the usual install paths are tried at start-up
   * (see find-chromium); after loading it holds the browser found, or nothing (jsdom mode).
   */
  CHROMIUM_PATH: optionalString,
  /** `auto`: render in Chromium when one is found; `off`: always jsdom (no layout rules). */
  ANALYSIS_BROWSER: z.enum(['auto', 'off']).default('auto'),
});

export type Env = z.infer<typeof envSchema>;

/** The validated settings, for tools that open the database but sign no tokens (`npm run alert`). */
export interface Settings extends Env {
  /** Absolute DATA_DIR (a relative one is relative to the project root, not to the cwd). */
  dataDir: string;
}

export interface Config extends Omit<Settings, 'JWT_SECRET'> {
  JWT_SECRET: string;
}

/**
 * The server's configuration: the settings and the key that signs access tokens. On PostgreSQL
 * JWT_SECRET must be set: a database that several app servers share means a token is checked by a
 * server other than the one that signed it, and a key generated per server (in its own DATA_DIR)
 * would answer 401 to every request that reaches another server.
 */
export function loadConfig(env: NodeJS.ProcessEnv = readEnvironment()): Config {
  const cfg = loadSettings(env);
  if (cfg.DATABASE_URL && !cfg.JWT_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  JWT_SECRET: required when DATABASE_URL is set (PostgreSQL): every ' +
        'app server sharing the database must sign access tokens with the same key; set the same ' +
        'random value of at least 32 characters on each (e.g. `openssl rand -base64 48`)',
    );
  }
  return { ...cfg, JWT_SECRET: cfg.JWT_SECRET ?? persistentSecret(cfg.dataDir) };
}

/** Parses an environment; throws ConfigError listing every wrong setting. */
export function loadSettings(env: NodeJS.ProcessEnv = readEnvironment()): Settings {
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
  if (cfg.REGISTRATION === 'domain' && cfg.REGISTRATION_DOMAINS.length === 0) {
    throw new ConfigError(
      'Invalid configuration:\n  REGISTRATION_DOMAINS: required when REGISTRATION=domain',
    );
  }
  const dataDir = path.resolve(PROJECT_ROOT, cfg.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    ...cfg,
    CHROMIUM_PATH: findChromium(cfg.CHROMIUM_PATH, cfg.ANALYSIS_BROWSER),
    dataDir,
  };
}

/** A secret generated on first start and kept in DATA_DIR, so tokens survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
