import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { addressMatcher, LOOPBACK } from './address-list';

/** Headers a reverse proxy adds; a browser sends none of them. */
const FORWARDING_HEADERS = [
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-real-ip',
  'forwarded',
];

/**
 * Notices a reverse proxy on this machine that TRUST_PROXY does not name: a forwarding header on a
 * connection from loopback while no proxy is trusted. Then every visitor looks like loopback (the
 * proxy's address): rate limits count them as one client, and an address rule that admits
 * loopback would admit them all. It is logged once, as a misconfiguration, and from then on
 * `seen()` is true (the metrics route then stops treating loopback as local).
 */
export function forwardedWithoutTrust(trustProxy: string | undefined, log: FastifyBaseLogger) {
  const trusted = Boolean(trustProxy && trustProxy !== 'false');
  const isLoopback = addressMatcher(LOOPBACK);
  let seen = false;
  return {
    observe(request: FastifyRequest) {
      if (trusted || seen) return;
      const peer = request.raw.socket.remoteAddress ?? '';
      if (!isLoopback(peer) || !FORWARDING_HEADERS.some((h) => h in request.headers)) return;
      seen = true;
      log.warn(
        { header: FORWARDING_HEADERS.filter((h) => h in request.headers) },
        'A reverse proxy on this machine forwards requests, but TRUST_PROXY is unset: every ' +
          "visitor looks like loopback. Set TRUST_PROXY to the proxy's address (or 1). Until then " +
          '/metrics asks for METRICS_TOKEN even from loopback.',
      );
    },
    seen: () => seen,
  };
}
