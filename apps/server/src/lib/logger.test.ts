import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app';
import { loadConfig } from '../config';
import { loggerOptions } from './logger';

describe('logs', () => {
  const lines: string[] = [];
  let app: App;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-log-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    app = await buildApp(config, {
      logger: { ...(loggerOptions('trace') as object), stream },
      webDistDir: path.join(dataDir, 'none'),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('never contain passwords or tokens, and tag every request line with a request id', async () => {
    const password = `secret-${randomBytes(6).toString('hex')}`;
    const post = (p: string, body: unknown, token?: string) =>
      fetch(url + p, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const reg = await (await post('/api/register', { email: 'log@example.com', password })).json();
    await post('/api/login', { email: 'log@example.com', password });
    const refreshed = await (await post('/api/token/refresh', {}, reg.refresh_token)).json();
    await fetch(`${url}/api/user`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    });
    await post('/api/logs', { message: 'client says hi', level: 'info' });

    const all = lines.join('');
    expect(all).toContain('client says hi');
    for (const secret of [
      password,
      reg.access_token,
      reg.refresh_token,
      refreshed.access_token,
      refreshed.refresh_token,
    ]) {
      expect(all).not.toContain(secret);
    }
    const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.req || l.res);
    expect(requestLines.length).toBeGreaterThan(0);
    for (const l of requestLines) expect(l.reqId).toBeTruthy();
  });
});
