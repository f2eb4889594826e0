import type { FastifyServerOptions } from 'fastify';

/**
 * TRUST_PROXY: `true`, `false`, a hop count, or a comma list of proxy addresses / CIDRs.
 *
 * A hop count N means: the last N addresses a request came through (the connecting peer, then
 * the X-Forwarded-For entries from the right) are proxies, and the one before them is the client.
 * Fastify (5.12 on) no longer reads a number that way: it trusts no hop at all, because a count
 * cannot tell the proxy from a client that connects directly and sends its own header. So the
 * count is passed as that rule itself. It is right where the app servers can be reached only
 * through the proxy (compose.yaml publishes nginx's port alone, and nginx replaces the header);
 * where clients can reach an app server directly, name the proxy's addresses instead.
 */
export function parseTrustProxy(value: string | undefined): FastifyServerOptions['trustProxy'] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address: string, hop: number) => hop < hops;
  }
  return value.split(',').map((s) => s.trim());
}
