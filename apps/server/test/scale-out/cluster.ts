import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { REDIS_NAMESPACE } from '../../src/plugins/rate-limit';
import { startS3TestServer, type S3TestServer } from '../s3-test-server';
import { findNginx, startNginx } from './nginx-proxy';
import { repoRoot, startNodeProcess, type NodeProcess } from './node-process';

/**
 * The product scaled out on one machine, as compose.yaml runs it: N app servers (real processes,
 * `node --import tsx apps/server/src/server.ts`) behind Debian's nginx with the shipped
 * deploy/nginx.conf, sharing one PostgreSQL schema, Redis and an S3-speaking server (s3rver), plus
 * optionally worker processes (`apps/server/src/worker.ts`) on the same settings.
 */

/** Why the scale-out harness cannot run here, or undefined when every piece is present. */
export function missingPiece(): string | undefined {
  if (!process.env.TEST_DATABASE_URL) return 'TEST_DATABASE_URL is not set (PostgreSQL)';
  if (!process.env.TEST_REDIS_URL) return 'TEST_REDIS_URL is not set (Redis)';
  if (!findNginx()) return 'nginx is not installed (Debian: apt-get install nginx)';
  return undefined;
}

/** A free loopback port (the app servers keep theirs across a restart, nginx names them). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
  });
}

export interface AppServer {
  /** Its own address, bypassing nginx. */
  url: string;
  port: number;
  process: NodeProcess;
}

export interface ClusterOptions {
  apps?: number;
  /** Settings added to (or replacing) the cluster's own for every process. */
  env?: Record<string, string>;
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

export async function startCluster(opts: ClusterOptions = {}) {
  const nginxBinary = findNginx();
  const reason = missingPiece();
  if (reason || !nginxBinary) throw new Error(`scale-out harness: ${reason}`);
  const schema = `scale_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const databaseUrl = new URL(process.env.TEST_DATABASE_URL!);
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
  const bucket = `inkwell-${schema.replace(/_/g, '-')}`;
  const s3: S3TestServer = await startS3TestServer({ buckets: [bucket] });
  const dataRoot = mkdtempSync(path.join(tmpdir(), 'inkwell-scale-'));

  // What every process of the deployment shares (compose.yaml's x-inkwell environment).
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    JWT_SECRET: randomBytes(32).toString('hex'),
    REDIS_URL: process.env.TEST_REDIS_URL!,
    ...s3.env(bucket),
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
    MODEL_DOWNLOAD: 'off',
    // pg-boss's tables beside the run's own schema, dropped with it.
    JOB_QUEUE_SCHEMA: `${schema}_queue`,
    WORKER_PORT: '0',
    ...opts.env,
  };
  const processEnv = (name: string, extra: Record<string, string> = {}) => {
    const dataDir = path.join(dataRoot, name);
    return { ...env, DATA_DIR: dataDir, ...extra };
  };

  const ports = await Promise.all(Array.from({ length: opts.apps ?? 2 }, () => freePort()));
  const startApp = async (i: number): Promise<AppServer> => {
    const port = ports[i]!;
    const { process } = await startNodeProcess({
      entry: 'apps/server/src/server.ts',
      env: processEnv(`app${i + 1}`, { PORT: String(port) }),
      ready: /Inkwell is running at/,
    });
    return { url: `http://127.0.0.1:${port}`, port, process };
  };
  const apps: AppServer[] = await Promise.all(ports.map((_, i) => startApp(i)));
  const workers: NodeProcess[] = [];
  const proxyPort = await freePort();
  const proxy = await startNginx(
    nginxBinary,
    proxyPort,
    ports.map((p) => `127.0.0.1:${p}`),
  );

  return {
    /** nginx: where clients go. */
    url: proxy.url,
    proxy,
    apps,
    workers,
    s3,
    bucket,
    schema,
    databaseUrl: databaseUrl.toString(),
    env,
    /** kill -9 of app server i: no shutdown, no clean-up, as a crashed machine. */
    async crash(i: number) {
      await apps[i]!.process.kill('SIGKILL');
    },
    /** Starts app server i again on its port (nginx sends to it again once it answers). */
    async restart(i: number) {
      apps[i] = await startApp(i);
      return apps[i];
    },
    /**
     * Starts a worker process on the deployment's settings, resolved once it prints a line
     * matching `ready` (for the jobs' worker, `apps/server/src/worker.ts`).
     */
    async startWorker(ready: RegExp, entry = 'apps/server/src/worker.ts') {
      if (!existsSync(path.join(repoRoot, entry))) throw new Error(`no ${entry}`);
      const name = `worker${workers.length + 1}`;
      const { process } = await startNodeProcess({ entry, env: processEnv(name), ready });
      workers.push(process);
      return process;
    },
    async stop() {
      await Promise.all([
        proxy.stop(),
        ...apps.map((a) => a.process.kill('SIGTERM')),
        ...workers.map((w) => w.kill('SIGTERM')),
      ]);
      await s3.close();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.query(`drop schema if exists ${schema}_queue cascade`);
      await admin.end();
      rmSync(dataRoot, { recursive: true, force: true });
    },
  };
}

/** Deletes the rate-limit counters of this run's client addresses (the only keys it touches). */
export async function forgetRateLimits(addresses: string[]) {
  const redis = new Redis(process.env.TEST_REDIS_URL!);
  try {
    const routes = ['POST/api/login', 'POST/api/register'];
    await redis.del(...addresses.flatMap((a) => routes.map((r) => `${REDIS_NAMESPACE}${r}-${a}`)));
  } finally {
    redis.disconnect();
  }
}
