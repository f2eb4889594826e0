/** The two databases the server runs on; its own module so migrations need not load database.ts. */
export type Dialect = 'sqlite' | 'postgres';
