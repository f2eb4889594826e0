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
  /**
   * 'operator' for the first account ever created (see FirstAccountTable); the role it grants
   * counts only while ADMIN_EMAILS is unset (lib/roles.ts).
   */
  role: ColumnType<string, string | undefined, string>;
  /** ENGLISH_DIALECTS of the contract: the English proofreading checks against. */
  english_dialect: ColumnType<string, string | undefined, string>;
  /** Set while an operator has disabled the account: no sign-in, no token works. */
  disabled_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Last sign-in or token refresh. */
  last_seen_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface InvitationsTable {
  id: Generated<number>;
  /** Lower-cased; the invitation admits this address only. */
  email: string;
  token_hash: string;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** At most one row (id 1): which account was created first. */
export interface FirstAccountTable {
  id: number;
  user_id: number;
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
  /** A reply's life (migration 011): 'done' for questions and complete replies. */
  state: ColumnType<ChatMessageState, ChatMessageState | undefined, ChatMessageState>;
  /** Heartbeat of a reply being generated. */
  updated_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export type ChatMessageState = 'streaming' | 'stopping' | 'done' | 'stopped';

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

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobsTable {
  /** A random UUID: for anonymous analyses, knowing it is what gives access. */
  id: string;
  user_id: number | null;
  /** Who it counts for (turns, caps): the user id, or `ip:<address>` for an anonymous one. */
  owner: string;
  /**
   * The session (refresh-token family) that started it: its logout cancels it. Null for an
   * anonymous job and for jobs created before migration 030.
   */
  session_id: string | null;
  kind: string;
  /** JSON of the job's input (see features/jobs/job-kinds.ts). */
  input: string;
  state: JobState;
  /** JSON of the last ProgressEvent. */
  progress: string | null;
  /** JSON of the answer, as the endpoint that created the job answers it. */
  result: string | null;
  /** JSON `{ error, status }` of a failed job. */
  error: string | null;
  attempts: number;
  /** The process running it; a heartbeat older than JOB_STALE_MS means that process is gone. */
  worker: string | null;
  heartbeat_at: string | null;
  /** The queue's message for it (pg-boss), once sent. */
  queue_id: string | null;
  created_at: string;
  /** When it last went into the queue (created, or taken back from a worker that went silent). */
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** When a finished job and its result are deleted. */
  expires_at: string | null;
}

/** Each job owner's last turn: the owner served least recently goes next. */
export interface JobOwnersTable {
  owner: string;
  served_at: string | null;
}

/** A slot of the model server, shared by every process (features/ai/scheduling/shared-slots.ts). */
export interface AiSlotsTable {
  slot: number;
  holder: string | null;
  owner: string | null;
  /** Epoch milliseconds (database clock); bigint comes back as a string on PostgreSQL. */
  expires_at: string | number | null;
}

export interface AiSlotWaitersTable {
  id: string;
  owner: string;
  since: string | number;
  expires_at: string | number;
}

export interface AiSlotTurnsTable {
  owner: string;
  served_at: string | number;
}

/** When a user's conversation began (their last New Topic); see migration 021. */
export interface ConversationsTable {
  user_id: number;
  started_at: string;
}

export interface JobPartsTable {
  job_id: string;
  /** A hash of the model call's prompt: the same call in a resumed job finds its answer here. */
  key: string;
  output: string;
}

/** A word of a user's personal dictionary (proofreading keeps it as written). */
export interface PersonalWordsTable {
  user_id: number;
  /** The word in lower case: one word once, whatever its case. */
  word_key: string;
  /** As the user wrote it. */
  word: string;
  created_at: string;
}

/** A file's place in the search index (features/documents/knowledge). */
export interface SearchFilesTable {
  file_id: number;
  user_id: number;
  /** FILE_SEARCH_STATES of the contract: 'reading' | 'searchable' | 'unreadable'. */
  state: string;
  error: string | null;
  language: ColumnType<string, string | undefined, string>;
  passages: ColumnType<number, number | undefined, number>;
  chars: ColumnType<number | string, number | undefined, number>;
  /** The reader version its text was read with: older ones are indexed again. */
  reader: ColumnType<number, number | undefined, number>;
  updated_at: string;
  /** The embeddings model its passages' vectors are from (search_vectors); null: none yet. */
  vector_model: ColumnType<string | null, string | null | undefined, string | null>;
  /** The mean of its passages' vectors (int8, vectors.ts), to find the files near a question. */
  centroid: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
}

/** One passage of a file in the search index; its terms are in search_fts / `terms`. */
export interface SearchPassagesTable {
  file_id: number;
  ord: number;
  user_id: number;
  language: string;
  ref: string;
  /** Offsets in the file's extracted text. */
  char_start: number;
  char_end: number;
  /** Its number of terms, for BM25's length normalisation. */
  length: number;
  /** Its text: `block_size` bytes at `block_at` of its block's UTF-8 text (search_blocks). */
  block: number;
  block_at: number;
  block_size: number;
}

/** A run of a file's passage texts, deflated together (raw DEFLATE of their UTF-8). */
export interface SearchBlocksTable {
  file_id: number;
  block: number;
  packed: Buffer;
}

/** A passage's vector from the embeddings model (AI_EMBEDDINGS_MODEL), int8 (vectors.ts). */
export interface SearchVectorsTable {
  file_id: number;
  ord: number;
  user_id: number;
  vector: Buffer;
}

/** A file being indexed by one indexer (migration 044; knowledge/search-claims.repo.ts). */
export interface SearchClaimsTable {
  file_id: number;
  /** The work claimed: 'terms' (indexer.ts) or 'vectors' (vector-indexer.ts). */
  kind: string;
  /** The indexer holding it (a random id per indexer). */
  holder: string;
  /** ISO time: past it, the claim is free (its server died or stalled). */
  expires_at: string;
}

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  files: FilesTable;
  file_text_cache: FileTextCacheTable;
  chat_messages: ChatMessagesTable;
  conversations: ConversationsTable;
  prompt_usage: PromptUsageTable;
  alerts: AlertsTable;
  contact_messages: ContactMessagesTable;
  used_captchas: UsedCaptchasTable;
  jobs: JobsTable;
  job_owners: JobOwnersTable;
  ai_slots: AiSlotsTable;
  ai_slot_waiters: AiSlotWaitersTable;
  ai_slot_turns: AiSlotTurnsTable;
  job_parts: JobPartsTable;
  invitations: InvitationsTable;
  first_account: FirstAccountTable;
  personal_words: PersonalWordsTable;
  search_files: SearchFilesTable;
  search_passages: SearchPassagesTable;
  search_blocks: SearchBlocksTable;
  search_vectors: SearchVectorsTable;
  search_claims: SearchClaimsTable;
}

export type Timestamp = ColumnType<string, string, string>;
