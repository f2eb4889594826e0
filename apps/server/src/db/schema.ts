import type { ColumnType, Generated } from 'kysely';

/**
 * The database schema as Kysely sees it. Timestamps are ISO-8601 strings in UTC on both SQLite and
 * PostgreSQL (stored as text), so the two dialects behave the same. Booleans are 0/1 integers.
 */
export interface UsersTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  /** Always stored lower-cased, so uniqueness is case-insensitive. */
  email: string;
  password_hash: string;
  created_at: string;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  expires_at: string;
  created_at: string;
  /** Set when rotated or revoked; presenting such a token again revokes the whole family. */
  revoked_at: string | null;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface FilesTable {
  id: Generated<number>;
  user_id: number;
  file_name: string;
  /** Lower-case extension: pdf, docx, xlsx, pptx, csv, txt. */
  type: string;
  size: number;
  /** Key of the bytes in the storage backend. */
  storage_key: string;
  created_at: string;
}

export interface FileTextCacheTable {
  file_id: number;
  /** JSON of the extraction result. */
  content: string;
  created_at: string;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  user_id: number;
  role: 'user' | 'assistant';
  content: string;
  created_at: string;
}

export interface PromptUsageTable {
  user_id: number;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  count: number;
}

export interface AlertsTable {
  id: Generated<number>;
  message: string;
  severity: string;
  title: string | null;
  created_at: string;
  cleared_at: string | null;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  message: string;
  created_at: string;
}

export interface UsedCaptchasTable {
  /** The challenge signature; a solved challenge is accepted once only. */
  signature: string;
  expires_at: string;
}

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  files: FilesTable;
  file_text_cache: FileTextCacheTable;
  chat_messages: ChatMessagesTable;
  prompt_usage: PromptUsageTable;
  alerts: AlertsTable;
  contact_messages: ContactMessagesTable;
  used_captchas: UsedCaptchasTable;
}

export type Timestamp = ColumnType<string, string, string>;
