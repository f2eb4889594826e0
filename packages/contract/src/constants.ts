/** Business constants of spec §9, shared by server and web. */

export const CHAT_MAX_CHARS = 1000;
export const DEFAULT_PROMPT_LIMIT = 20;

export const MB = 1024 * 1024;
export const ALLOWED_EXTENSIONS = ['xlsx', 'pdf', 'txt', 'docx', 'pptx', 'csv'] as const;
export type FileExtension = (typeof ALLOWED_EXTENSIONS)[number];

/** Per-type upload limits in bytes. */
export const FILE_SIZE_LIMITS: Record<FileExtension, number> = {
  txt: 2 * MB,
  csv: 5 * MB,
  xlsx: 10 * MB,
  pdf: 10 * MB,
  docx: 10 * MB,
  pptx: 10 * MB,
};
/** How a type's size limit is named to people: "Text files can be at most 2 MB." */
export const FILE_TYPE_NAMES: Record<FileExtension, string> = {
  txt: 'Text files',
  csv: 'CSV files',
  xlsx: 'Excel workbooks',
  pdf: 'PDF files',
  docx: 'Word documents',
  pptx: 'PowerPoint presentations',
};
export function fileSizeLimitText(type: FileExtension): string {
  return `${FILE_TYPE_NAMES[type]} can be at most ${FILE_SIZE_LIMITS[type] / MB} MB.`;
}
export const MAX_FILE_BYTES = 10 * MB;
export const ACCOUNT_QUOTA_BYTES = 100 * MB;
export const MAX_FILE_NAME_LENGTH = 200;

export const TRANSLATION_LANGUAGES = [
  'Arabic',
  'Chinese',
  'Danish',
  'Dutch',
  'English',
  'Estonian',
  'Finnish',
  'French',
  'German',
  'Greek',
  'Hebrew',
  'Hindi',
  'Indonesian',
  'Italian',
  'Japanese',
  'Korean',
  'Mandarin',
  'Norwegian',
  'Polish',
  'Portuguese',
  'Spanish',
  'Swedish',
  'Tagalog',
  'Thai',
  'Turkish',
  'Ukrainian',
  'Vietnamese',
] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

/**
 * The English proofreading checks a user's texts against (a user setting): `auto` reads it from
 * each text's spellings (colour/color, organise/organize, centre/center, ...).
 */
export const ENGLISH_DIALECTS = [
  'auto',
  'american',
  'british',
  'australian',
  'canadian',
  'indian',
] as const;
export type EnglishDialect = (typeof ENGLISH_DIALECTS)[number];

export const DOWNLOAD_FORMATS = ['txt', 'pdf', 'docx'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export const PREVIEW_ZOOM = { min: 10, max: 40, default: 16 } as const;

export const FILE_ACTIONS = [
  'download',
  'rename',
  'delete',
  'proofread',
  'analyzeSentiment',
  'summarize',
  'askQuestions',
  'translate',
  'deleteAll',
] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];

/** Password rules (spec: "not shown"; we require 8–128 characters). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const TIMINGS_MS = {
  logoutSpinner: 2000,
  copyConfirmation: 2000,
  resetRedirect: 3000,
  snackbar: 6000,
} as const;

export const CONSENT_COOKIE = { name: 'myAppCookieConsent', value: 'true', days: 365 } as const;
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  firstName: 'firstName',
} as const;

/**
 * What a user reads when no model can answer (contract ai.ts): what they can do, nothing
 * internal; the operator's reason goes to the log and the Admin page.
 */
export const MODEL_UNAVAILABLE_MESSAGE =
  'The assistant is unavailable right now; the operator has been told.';
