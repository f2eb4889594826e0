import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_UNAVAILABLE_MESSAGE } from '@inkwell/contract';
import { startModelDownloadHost, type ModelDownloadHost } from '../../../test/model-download-host';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { ensureTinyGguf } from './engine/llama/tiny-gguf';

/**
 * The model's health as users and operators see it: a model server that stops answering turns
 * `unreachable` (chats fail at once with a message for the user, the public health routes say
 * so without the address), then `ready` again by itself; a failed model download is tried again,
 * at once when the operator asks on the Admin page.
 */
interface Status {
  state: string;
  reason: string | null;
  name: string;
  last_ok_at: string | null;
}
const OPERATOR = 'ops@example.com';

async function statusOf(server: TestServer, token: string): Promise<Status> {
  return (await (await server.request('/api/ai/status', { token })).json()) as Status;
}

describe('an OpenAI-compatible model server that stops and comes back', () => {
  let ai: OpenAITestServer;
  let server: TestServer;
  let ops: { token: string };
  let user: { token: string };
  beforeAll(async () => {
    ai = await startOpenAITestServer();
    server = await startTestServer({ env: { AI_BASE_URL: ai.url, ADMIN_EMAILS: OPERATOR } });
    ops = await registerUser(server, { email: OPERATOR });
    user = await registerUser(server);
  });
  afterAll(async () => {
    await server?.close();
    await ai?.close();
  });

  const chat = (text: string) =>
    server.request('/api/chat', { method: 'POST', token: user.token, json: { text } });

  it('is ready once its server answered, with the time of that answer', async () => {
    await expect
      .poll(async () => (await statusOf(server, user.token)).last_ok_at, { timeout: 15_000 })
      .not.toBeNull();
    expect(await statusOf(server, user.token)).toMatchObject({ state: 'ready', reason: null });
    const ready = await server.request('/api/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', model: 'ok' });
    expect((await chat('hello')).status).toBe(200);
  });

  it('turns unreachable when the server stops: chats fail at once, in the user’s words', async () => {
    const lastOk = (await statusOf(server, user.token)).last_ok_at!;
    await ai.stop();
    const first = await chat('are you there?');
    expect(first.status).toBe(503);
    expect(await first.json()).toEqual({ error: MODEL_UNAVAILABLE_MESSAGE });

    const status = await statusOf(server, user.token);
    expect(status).toMatchObject({ state: 'unreachable', reason: MODEL_UNAVAILABLE_MESSAGE });
    expect(Date.parse(status.last_ok_at!)).toBeGreaterThanOrEqual(Date.parse(lastOk));
    // Users never read the model server's internal address.
    expect(JSON.stringify(status)).not.toContain('127.0.0.1');

    // The known-down server is not even tried: the answer is the same, at once.
    const again = await chat('still there?');
    expect(again.status).toBe(503);
    expect(await again.json()).toEqual({ error: MODEL_UNAVAILABLE_MESSAGE });

    const ready = await server.request('/api/ready');
    expect(ready.status).toBe(503);
    const readyText = await ready.text();
    expect(JSON.parse(readyText)).toMatchObject({ status: 'degraded', model: 'unreachable' });
    expect(readyText).not.toContain('127.0.0.1');
    const health = await server.request('/api/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ model: 'unreachable' });

    // The operator reads the reason with the address and the setting to fix.
    const overview = (await (
      await server.request('/api/admin/overview', { token: ops.token })
    ).json()) as { model: { detail: string; state: string } };
    expect(overview.model.state).toBe('unreachable');
    expect(overview.model.detail).toContain(ai.url);
    expect(overview.model.detail).toContain('AI_BASE_URL');
  });

  it('is ready again by itself once the server is back (checked with backoff)', async () => {
    await ai.restart();
    await expect
      .poll(async () => (await statusOf(server, user.token)).state, { timeout: 45_000 })
      .toBe('ready');
    expect((await server.request('/api/ready')).status).toBe(200);
    expect((await chat('back again')).status).toBe(200);
  }, 60_000);

  it('checks the server now when an operator asks; others get a 404', async () => {
    const asUser = await server.request('/api/admin/model/retry', {
      method: 'POST',
      token: user.token,
    });
    expect(asUser.status).toBe(404);
    const res = await server.request('/api/admin/model/retry', {
      method: 'POST',
      token: ops.token,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ retried: true, model: { state: 'ready' } });
  });
});

describe('a model download that fails, then works', () => {
  let host: ModelDownloadHost;
  let server: TestServer;
  let ops: { token: string };
  beforeAll(async () => {
    // The host is down at first start: a machine whose network is not up yet.
    host = await startModelDownloadHost(readFileSync(ensureTinyGguf()), {
      holdHalfWay: false,
      down: true,
    });
    server = await startTestServer({
      env: { MODEL: host.url, MODEL_DOWNLOAD: 'auto', ADMIN_EMAILS: OPERATOR },
    });
    ops = await registerUser(server, { email: OPERATOR });
  });
  afterAll(async () => {
    await server?.close();
    await host?.close();
  });

  it('says unavailable in the user’s words, the reason and next try for the operator', async () => {
    expect(await server.app.ai.whenSettled()).toMatchObject({ state: 'unavailable' });
    const user = await registerUser(server);
    const status = await statusOf(server, user.token);
    expect(status).toMatchObject({ state: 'unavailable', reason: MODEL_UNAVAILABLE_MESSAGE });
    expect(JSON.stringify(status)).not.toMatch(/MODEL_|127\.0\.0\.1|\.gguf\b.*models/);
    const res = await server.request('/api/chat', {
      method: 'POST',
      token: user.token,
      json: { text: 'hi' },
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: MODEL_UNAVAILABLE_MESSAGE });

    const overview = (await (
      await server.request('/api/admin/overview', { token: ops.token })
    ).json()) as { model: { detail: string; next_retry_at: string | null } };
    expect(overview.model.detail).toMatch(/could not download the model .*MODEL_PATH/);
    expect(overview.model.detail).toContain(host.url);
    expect(Date.parse(overview.model.next_retry_at ?? '')).toBeGreaterThan(Date.now() - 1000);
  });

  it('downloads at once when the operator retries, and becomes ready', async () => {
    await host.restart();
    const res = await server.request('/api/admin/model/retry', {
      method: 'POST',
      token: ops.token,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ retried: true });
    const user = await registerUser(server);
    await expect
      .poll(async () => (await statusOf(server, user.token)).state, { timeout: 45_000 })
      .toBe('ready');
  }, 60_000);
});
