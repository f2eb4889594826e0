import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from './node-process';

/**
 * What compose.yaml and the Dockerfile promise, read from the files (no container engine runs the
 * tests; `docker-compose config` validates the syntax where one is installed).
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
});
