import type { Redis } from 'ioredis';

/**
 * Counts failed sign-ins per client address, so that a limit refuses guessing but never the
 * people who sign in successfully from one shared address (an office behind NAT). Counters live
 * in Redis when there is one (shared by every app server), in this process while it is down.
 */
export interface SignInFailures {
  /** Seconds until `key` may try again; 0 when it may now. */
  retryAfter(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
}

export function signInFailures(
  redis: Redis | null,
  opts: { max: number; windowMs: number; prefix: string },
): SignInFailures {
  const local = new Map<string, { count: number; resetAt: number }>();
  const localEntry = (key: string) => {
    const entry = local.get(key);
    if (entry && entry.resetAt > Date.now()) return entry;
    local.delete(key);
    return null;
  };
  const shared = () => (redis && redis.status === 'ready' ? redis : null);
  return {
    async retryAfter(key) {
      const r = shared();
      if (r) {
        try {
          const [count, ttl] = await Promise.all([
            r.get(opts.prefix + key),
            r.pttl(opts.prefix + key),
          ]);
          return Number(count ?? 0) >= opts.max && ttl > 0 ? Math.ceil(ttl / 1000) : 0;
        } catch {
          // Redis failed mid-call: count here.
        }
      }
      const entry = localEntry(key);
      return entry && entry.count >= opts.max ? Math.ceil((entry.resetAt - Date.now()) / 1000) : 0;
    },
    async recordFailure(key) {
      const r = shared();
      if (r) {
        try {
          const count = await r.incr(opts.prefix + key);
          if (count === 1) await r.pexpire(opts.prefix + key, opts.windowMs);
          return;
        } catch {
          // Redis failed mid-call: count here.
        }
      }
      const entry = localEntry(key) ?? { count: 0, resetAt: Date.now() + opts.windowMs };
      entry.count += 1;
      local.set(key, entry);
    },
  };
}
