import type { DatabaseIntrospector, Kysely, TableMetadata } from 'kysely';
import { PostgresDialect, PostgresIntrospector, sql } from 'kysely';

/**
 * Kysely's PostgreSQL introspection reads every schema of the database and calls
 * has_schema_privilege / pg_get_serial_sequence on each: when another app (or a parallel test run)
 * drops its schema during that query, PostgreSQL fails it with "schema … does not exist" and our
 * migration with it. The migrator only asks whether its own tables exist, so tables are listed from
 * the connection's own schema (current_schema()) alone.
 */
class OwnSchemaIntrospector extends PostgresIntrospector implements DatabaseIntrospector {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- introspection runs on any schema
  constructor(private readonly database: Kysely<any>) {
    super(database);
  }

  override async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ schema: string; name: string; type: string }>`
      select table_schema as schema, table_name as name, table_type as type
      from information_schema.tables
      where table_schema = current_schema()
      order by table_name`.execute(this.database);
    return rows.map((r) => ({
      name: r.name,
      schema: r.schema,
      isView: r.type === 'VIEW',
      columns: [],
    }));
  }
}

/** The PostgreSQL dialect with introspection confined to the connection's own schema. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as the base class
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}
