import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { Migrator, sql } from 'kysely';
import type { Dialect } from './dialect';
import * as initial from './migrations/001-initial';
import * as accounts from './migrations/002-accounts';
import * as jobs from './migrations/010-jobs';
import * as jobOwners from './migrations/011-job-owners';
import * as aiSlots from './migrations/012-ai-slots';
import * as chatReplies from './migrations/013-chat-replies';
import * as noGrantedRoles from './migrations/014-no-granted-roles';
import * as englishDialect from './migrations/020-english-dialect';
import * as conversationStart from './migrations/021-conversation-start';
import * as jobSessions from './migrations/030-job-sessions';
import * as personalDictionary from './migrations/035-personal-dictionary';
import * as searchIndex from './migrations/040-search-index';
import * as searchBlocks from './migrations/041-search-blocks';
import * as searchVectors from './migrations/042-search-vectors';
import * as searchFtsMerge from './migrations/043-search-fts-merge';
import * as searchClaims from './migrations/044-search-claims';

/**
 * Migrations are listed in code (not read from a folder) so they run the same from source, from
 * tests and from a bundle. Add a new file and a line here; never edit an applied migration.
 */
type DialectMigration = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };
const migrations: Record<string, DialectMigration> = {
  '001-initial': initial,
  '002-accounts': accounts,
  '010-jobs': jobs,
  '011-job-owners': jobOwners,
  '012-ai-slots': aiSlots,
  '013-chat-replies': chatReplies,
  '014-no-granted-roles': noGrantedRoles,
  '020-english-dialect': englishDialect,
  '021-conversation-start': conversationStart,
  '030-job-sessions': jobSessions,
  '035-personal-dictionary': personalDictionary,
  '040-search-index': searchIndex,
  '041-search-blocks': searchBlocks,
  '042-search-vectors': searchVectors,
  '043-search-fts-merge': searchFtsMerge,
  '044-search-claims': searchClaims,
};

export async function migrateToLatest(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before any schema exists
  db: Kysely<any>,
  dialect: Dialect,
  /** Stops after this migration (a migration's test starts from the schema before it). */
  upTo?: string,
) {
  const names = Object.keys(migrations);
  const last = upTo === undefined ? names.length - 1 : names.indexOf(upTo);
  if (last < 0) throw new Error(`no migration named ${upTo}`);
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const name of names.slice(0, last + 1)) {
        out[name] = { up: (d) => migrations[name]!.up(d, dialect) };
      }
      return out;
    },
  };
  // Kysely looks for its migration tables in every schema unless told which one: a PostgreSQL
  // database where another schema already has them (another app, a parallel test run) would
  // otherwise skip creating ours and fail.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
          ?.schema
      : undefined;
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
}
