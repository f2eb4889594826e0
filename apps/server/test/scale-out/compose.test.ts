import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from './node-process';

/**
 * What compose.yaml and the Dockerfile promise, read from the files, and compose.yaml as a compose
 * tool reads it: `docker-compose config` (Debian's docker-compose, which .ci/run installs) needs no
 * daemon. No container engine runs in the tests.
 */
interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  restart?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  volumes?: string[];
}
const compose = parse(readFileSync(path.join(repoRoot, 'compose.yaml'), 'utf8'), {
  merge: true,
}) as { services: Record<string, Service> };
const dockerfile = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');
const services = compose.services;
const built = (s: Service) => s.build !== undefined;

/** Debian's docker-compose, if installed (.ci/run installs it). */
const composeTool = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;

/** What compose accepts where a command goes: a string, or a list of strings. */
const isCommand = (v: unknown) =>
  typeof v === 'string' || (Array.isArray(v) && v.every((part) => typeof part === 'string'));
/** A scalar (compose turns numbers and booleans into strings), never a map or a list. */
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** The final stage of the Dockerfile: what the running image holds. */
const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
/** The words of the final stage's `apt-get install` command, its continuation lines joined. */
const installedPackages = () =>
  (finalStage.replace(/\\\n/g, ' ').match(/apt-get install[^\n]*/)?.[0] ?? '').split(/\s+/);

describe('compose.yaml and the Dockerfile', () => {
  it('runs two app servers and a worker from the Dockerfile, started with node, not npm', () => {
    const fromDockerfile = Object.keys(services).filter((name) => built(services[name]!));
    expect(fromDockerfile.sort()).toEqual(['app1', 'app2', 'worker']);
    expect(services.worker!.command).toEqual([
      'node',
      '--import',
      'tsx',
      'apps/server/src/worker.ts',
    ]);
    expect(dockerfile).toMatch(
      /^CMD \["node", "--import", "tsx", "apps\/server\/src\/server\.ts"\]$/m,
    );
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/api\/health/m);
    expect(JSON.stringify(Object.values(services))).not.toMatch(/npm (ci|start|run)/);
  });

  it('shares one required JWT_SECRET, and trusts exactly one proxy hop', () => {
    for (const name of ['app1', 'app2', 'worker']) {
      const env = services[name]!.environment!;
      expect(env.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?.+\}$/);
      expect(env.TRUST_PROXY).toBe('1');
    }
    expect(services.proxy!.volumes).toContain(
      './deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro',
    );
  });

  it('waits on health (or on the bucket being made), and restarts what stops', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.restart, name).toBe(name === 'minio-bucket' ? 'no' : 'unless-stopped');
      for (const [needed, { condition }] of Object.entries(service.depends_on ?? {})) {
        if (needed === 'minio-bucket') {
          expect(condition, `${name} → ${needed}`).toBe('service_completed_successfully');
          continue;
        }
        expect(condition, `${name} → ${needed}`).toBe('service_healthy');
        const other = services[needed]!;
        // The image's own HEALTHCHECK covers the services built from the Dockerfile.
        expect(built(other) || other.healthcheck?.test !== undefined, needed).toBe(true);
      }
    }
    for (const app of ['app1', 'app2', 'worker'])
      expect(Object.keys(services[app]!.depends_on!).sort()).toEqual(
        ['minio', 'minio-bucket', 'ollama', 'postgres', 'redis'].sort(),
      );
  });

  it('is accepted by docker-compose config, and refused without JWT_SECRET, naming it', () => {
    if (!composeTool) {
      console.warn('skipped: docker-compose is not installed (.ci/run installs it)');
      return;
    }
    // An empty env file: a developer's own .env beside compose.yaml must not decide the result.
    const noEnvFile = path.join(mkdtempSync(path.join(tmpdir(), 'inkwell-compose-')), 'empty.env');
    writeFileSync(noEnvFile, '');
    const run = (env: Record<string, string>) =>
      spawnSync(
        'docker-compose',
        ['-f', 'compose.yaml', '--env-file', noEnvFile, 'config', '--quiet'],
        {
          cwd: repoRoot,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
          encoding: 'utf8',
        },
      );
    const ok = run({ JWT_SECRET: 'a'.repeat(48) });
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    const refused = run({});
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/JWT_SECRET/);
    // And the worker's health check comes out as the command it is, not a map.
    const resolved = parse(
      execFileSync('docker-compose', ['-f', 'compose.yaml', '--env-file', noEnvFile, 'config'], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', JWT_SECRET: 'a'.repeat(48) },
        encoding: 'utf8',
      }),
    ) as { services: Record<string, Service> };
    expect(resolved.services.worker!.healthcheck!.test!.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
  });

  it('holds every value in the type compose expects, not only the keys', () => {
    for (const [name, service] of Object.entries(services) as [string, Record<string, unknown>][]) {
      for (const key of ['command', 'entrypoint'] as const) {
        if (service[key] !== undefined)
          expect(isCommand(service[key]), `${name}.${key}`).toBe(true);
      }
      const check = service.healthcheck as Record<string, unknown> | undefined;
      if (check?.test !== undefined)
        expect(isCommand(check.test), `${name} healthcheck`).toBe(true);
      for (const key of ['interval', 'timeout', 'start_period'] as const) {
        if (check?.[key] !== undefined)
          expect(check[key], `${name} ${key}`).toMatch(/^\d+(ms|s|m)$/);
      }
      const env = (service.environment ?? {}) as Record<string, unknown>;
      for (const [key, value] of Object.entries(env))
        expect(isScalar(value), `${name}.environment.${key}`).toBe(true);
      for (const key of ['volumes', 'ports'] as const) {
        const list = service[key];
        if (list !== undefined)
          expect(
            Array.isArray(list) && list.every((v) => typeof v === 'string'),
            `${name}.${key}`,
          ).toBe(true);
      }
    }
  });

  it("runs audits at full strength in the image: Debian's Chromium and fonts, CHROMIUM_PATH set", () => {
    for (const pkg of ['chromium', 'fonts-dejavu-core', 'fonts-noto-cjk'])
      expect(installedPackages(), pkg).toContain(pkg);
    expect(finalStage).toMatch(/^ENV .*CHROMIUM_PATH=\/usr\/bin\/chromium/m);
  });

  it("reads pdf text natively in the image: Debian's poppler-utils (pdftotext)", () => {
    expect(installedPackages()).toContain('poppler-utils');
    expect(finalStage).not.toMatch(/PDF_READER=pdfjs/);
  });
});
