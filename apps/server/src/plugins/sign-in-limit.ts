import type { Redis } from 'ioredis';

/**
 * The sign-in limit per client address: `max` attempts per window. An attempt is counted before
 * its password is checked, so a burst of simultaneous guesses gets no more checks than `max`; it
 * is given back when the password was right, so the people of one office behind one address who
 * sign in successfully are never refused. Counters live in Redis when there is one (shared by
 * every app server), in this process while it is down.
 */
export interface SignInLimit {
  /** Counts an attempt of `key`, or refuses it (nothing counted) while its budget is spent. */
  attempt(key: string): Promise<SignInAttempt>;
}

export type SignInAttempt =
  | {
      allowed: true;
      /** Gives the attempt back (its password was right), once; never throws. */
      refund(): Promise<void>;
    }
  | {
      allowed: false;
      /** Seconds until `key` may try again. */
      retryAfter: number;
    };

export interface SignInLimitOptions {
  max: number;
  windowMs: number;
  prefix: string;
  /** Addresses counted in this process at most (while Redis is down): the oldest windows go. */
  maxLocalKeys?: number;
  onRedisError?(err: unknown): void;
}

/**
 * One step in Redis (a script runs alone): refuse while the count has reached the limit, or count
 * and give a new key its expiry. A key left without one (by an older version that set it in a
 * second step) gets it here, so no address stays limited forever. Answers [allowed, ms left].
 */
const ATTEMPT = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, ttl} end
redis.call('INCR', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {1, ttl}
`;

/** Gives an attempt back, only to a counter still there: never creates a key without expiry. */
const REFUND = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 1
`;

type Scripted = Redis & {
  signInAttempt(key: string, max: number, windowMs: number): Promise<[number, number]>;
  signInRefund(key: string): Promise<number>;
};

function withScripts(redis: Redis): Scripted {
  const r = redis as Scripted;
  if (typeof r.signInAttempt !== 'function') {
    redis.defineCommand('signInAttempt', { numberOfKeys: 1, lua: ATTEMPT });
    redis.defineCommand('signInRefund', { numberOfKeys: 1, lua: REFUND });
  }
  return r;
}

/** An attempt is given back at most once. */
function once(refund: () => Promise<void>): () => Promise<void> {
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    await refund();
  };
}

/**
 * Counters of this process, in a Map whose order is their windows' order (every window has the
 * same length and an entry is re-inserted when a new one starts), so expired ones are swept from
 * the front and, at `maxKeys`, the one closest to its end makes room.
 */
export function localCounters(opts: { max: number; windowMs: number; maxKeys: number }) {
  const counters = new Map<string, { count: number; resetAt: number }>();
  const sweep = (now: number) => {
    for (const [key, entry] of counters) {
      if (entry.resetAt > now && counters.size < opts.maxKeys) return;
      counters.delete(key);
    }
  };
  return {
    get size() {
      return counters.size;
    },
    attempt(key: string, now = Date.now()): SignInAttempt {
      let entry = counters.get(key);
      if (entry && entry.resetAt <= now) {
        counters.delete(key);
        entry = undefined;
      }
      if (entry && entry.count >= opts.max) {
        return { allowed: false, retryAfter: Math.ceil((entry.resetAt - now) / 1000) };
      }
      if (!entry) {
        sweep(now);
        entry = { count: 0, resetAt: now + opts.windowMs };
        counters.set(key, entry);
      }
      entry.count += 1;
      const counted = entry;
      return {
        allowed: true,
        refund: once(async () => {
          // Only to the window it was counted in.
          if (counters.get(key) === counted && counted.count > 0) counted.count -= 1;
        }),
      };
    },
  };
}

export function signInLimit(redis: Redis | null, opts: SignInLimitOptions): SignInLimit {
  const local = localCounters({ ...opts, maxKeys: opts.maxLocalKeys ?? 100_000 });
  const shared = () => (redis && redis.status === 'ready' ? withScripts(redis) : null);
  return {
    async attempt(key) {
      const r = shared();
      if (r) {
        const redisKey = opts.prefix + key;
        try {
          const [allowed, ttl] = await r.signInAttempt(redisKey, opts.max, opts.windowMs);
          if (!allowed) return { allowed: false, retryAfter: Math.max(1, Math.ceil(ttl / 1000)) };
          return {
            allowed: true,
            refund: once(() =>
              r.signInRefund(redisKey).then(
                () => {},
                (err: unknown) => opts.onRedisError?.(err),
              ),
            ),
          };
        } catch (err) {
          // Redis failed mid-call: count here.
          opts.onRedisError?.(err);
        }
      }
      return local.attempt(key);
    },
  };
}
