import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Vectors of the search index's passages, when an embeddings model is configured
 * (AI_EMBEDDINGS_MODEL; features/documents/knowledge/vector-indexer.ts): computed once per file
 * after its passages are indexed, each an int8 vector with the owner's id, and a file's mean
 * vector in search_files to find the files nearest a question. A file indexed again, or indexed
 * with another model, gets its vectors again; deleting a file deletes them by cascade.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('search_vectors')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('ord', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('vector', blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('search_vectors_pk', ['file_id', 'ord'])
    .execute();
  await db.schema.alterTable('search_files').addColumn('vector_model', 'text').execute();
  await db.schema.alterTable('search_files').addColumn('centroid', blob).execute();
}
