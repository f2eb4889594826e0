import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { forwardedWithoutTrust } from './forwarded-without-trust';

/** A Fastify app whose log lines are kept, observing every request as the metrics plugin does. */
async function appWith(trustProxy: string | undefined) {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  const proxy = forwardedWithoutTrust(trustProxy, app.log);
  app.addHook('onRequest', async (request) => proxy.observe(request));
  app.get('/', async () => 'ok');
  await app.ready();
  const warnings = () => lines.filter((l) => l.level === 40).map((l) => l.msg);
  return { app, proxy, warnings };
}

describe('a forwarding proxy that TRUST_PROXY does not name', () => {
  it('is logged once as a misconfiguration, on the first forwarded request from loopback', async () => {
    const { app, proxy, warnings } = await appWith(undefined);
    await app.inject({ url: '/' });
    expect(proxy.seen()).toBe(false);
    for (const header of ['x-forwarded-for', 'x-forwarded-proto', 'forwarded'])
      await app.inject({ url: '/', headers: { [header]: 'for=203.0.113.9' } });
    expect(proxy.seen()).toBe(true);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatch(/TRUST_PROXY is unset/);
    await app.close();
  });

  it('is not reported when TRUST_PROXY is set, nor for a client that is not loopback', async () => {
    const trusted = await appWith('1');
    await trusted.app.inject({ url: '/', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(trusted.proxy.seen()).toBe(false);
    expect(trusted.warnings()).toEqual([]);
    await trusted.app.close();

    const remote = await appWith(undefined);
    await remote.app.inject({
      url: '/',
      remoteAddress: '198.51.100.7',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(remote.proxy.seen()).toBe(false);
    expect(remote.warnings()).toEqual([]);
    await remote.app.close();
  });
});
