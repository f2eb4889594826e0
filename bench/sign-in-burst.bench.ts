// Password guessing in a burst (issue 36): with AUTH_RATE_LIMIT=3, 30 wrong-password sign-ins for
// one account sent at the same moment from one address, while GET /api/health is polled one
// request after another. Targets: at most 3 of each burst judged (401; the rest 429), /api/health
// p99 ≤ 50 ms during the bursts. Then the same 30 from 30 addresses (each within its limit), where
// only the password-hashing queue (features/auth/passwords.ts) stands between the burst and the
// thread pool. Two controls: /api/health polled with no sign-ins (the machine's own load), and
// during bursts from an address already past its limit (30 requests at once, none checked).
// First, how many argon2 checks at once (K) the queue should allow: 30 checks run K at a time
// while the event loop's delay and a file read's latency (libuv's thread pool, which file and DNS
// work share with argon2) are measured. With SIGN_IN_BASELINE_DIR (another checkout with its
// node_modules, e.g. main), that checkout's server is measured first.
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import argon2 from 'argon2';
import { percentile, probeHealth } from './lib/health-probe';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';
import { send } from './lib/raw-http';

const LIMIT = 3;
const BURST = 30;
const ROUNDS = Number(process.env.SIGN_IN_ROUNDS ?? 10);
const TARGET_MS = 50;
const IDLE_MS = 15_000;

const ms = (v: number) => `${v.toFixed(1)} ms`;
const load = () => loadavg()[0]!.toFixed(1);

/** 30 argon2id checks (the product's parameters), `k` at a time, with probes of the loop and pool. */
async function checksAtOnce(k: number, hash: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'inkwell-argon-'));
  const file = path.join(dir, 'probe');
  await writeFile(file, 'x'.repeat(4096));
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const reads: number[] = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t0 = performance.now();
      await readFile(file);
      reads.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const started = performance.now();
  loop.enable();
  let next = 0;
  await Promise.all(
    Array.from({ length: k }, async () => {
      while (next < BURST) {
        next += 1;
        await argon2.verify(hash, 'a wrong guess');
      }
    }),
  );
  loop.disable();
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await probe;
  await rm(dir, { recursive: true, force: true });
  reads.sort((a, b) => a - b);
  return {
    seconds,
    loopP99: loop.percentile(99) / 1e6,
    readP50: percentile(reads, 50),
    readP99: percentile(reads, 99),
  };
}

/** `rounds` bursts of 30 wrong sign-ins, one after another, while /api/health is polled. */
async function bursts(base: string, email: string, from: (round: number, i: number) => string) {
  const statuses = new Map<number, number>();
  const judgedPerRound: number[] = [];
  let end!: () => void;
  const health = probeHealth(base, new Promise<void>((r) => (end = r)), 2);
  const body = Buffer.from(JSON.stringify({ email, password: 'a wrong guess' }));
  for (let round = 0; round < ROUNDS; round++) {
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        send(`${base}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': from(round, i) },
          body,
        }),
      ),
    );
    for (const s of answers) statuses.set(s, (statuses.get(s) ?? 0) + 1);
    judgedPerRound.push(answers.filter((s) => s === 401).length);
  }
  end();
  const times = await health;
  return { statuses, judgedPerRound, times };
}

async function measure(label: string, productDir?: string) {
  console.log(`${label}: the server of ${productDir ?? 'this checkout'}`);
  const server = await startServerProcess(
    // Each burst from an address of its own (X-Forwarded-For from the bench on loopback).
    { AUTH_RATE_LIMIT: String(LIMIT), TRUST_PROXY: '127.0.0.1' },
    { productDir },
  );
  try {
    const email = `burst-${Date.now()}@example.com`;
    await server.register(email);
    for (let i = 0; i < 20; i++)
      await send(`${server.url}/api/health`, { method: 'GET', headers: {} });

    // The control: what the machine's load alone does to /api/health, with no sign-in at all.
    const loadIdle = load();
    const idle = await probeHealth(server.url, new Promise((r) => setTimeout(r, IDLE_MS)), 2);
    console.log(
      `${label}, no sign-ins for ${IDLE_MS / 1000} s: /api/health ${idle.length} checks, ` +
        `p50 ${ms(percentile(idle, 50))}, p99 ${ms(percentile(idle, 99))}, max ${ms(idle.at(-1)!)}; ` +
        `machine load average ${loadIdle} → ${load()}`,
    );
    result({
      name: `${label}: /api/health p99 with no sign-ins (the machine's load alone)`,
      value: Math.round(percentile(idle, 99) * 10) / 10,
      unit: 'ms',
    });

    const loadBefore = load();
    const one = await bursts(server.url, email, (round) => `10.1.${round}.1`);
    const p50 = percentile(one.times, 50);
    const p99 = percentile(one.times, 99);
    const most = Math.max(...one.judgedPerRound);
    console.log(
      `${label}, ${ROUNDS} bursts of ${BURST} from one address each: judged per burst ` +
        `${one.judgedPerRound.join(', ')}; answers ${[...one.statuses].map(([s, n]) => `${s} ×${n}`).join(', ')}; ` +
        `/api/health ${one.times.length} checks, p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(one.times.at(-1)!)}; ` +
        `machine load average ${loadBefore} → ${load()}`,
    );
    result({
      name: `${label}: wrong sign-ins judged of a burst of ${BURST} (AUTH_RATE_LIMIT=${LIMIT})`,
      value: most,
      unit: 'max per burst',
      target: `≤ ${LIMIT}`,
      met: most <= LIMIT,
    });
    result({
      name: `${label}: /api/health p99 during the bursts from one address`,
      value: Math.round(p99 * 10) / 10,
      unit: 'ms',
      target: `≤ ${TARGET_MS} ms`,
      met: p99 <= TARGET_MS,
    });

    // The second control: the same bursts from an address whose budget is already spent, so
    // none is checked: what 30 requests at once cost this loaded machine without any argon2.
    const spent = '10.3.0.1';
    for (let i = 0; i < LIMIT; i++) {
      await send(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': spent },
        body: Buffer.from(JSON.stringify({ email, password: 'a wrong guess' })),
      });
    }
    const loadRefused = load();
    const refused = await bursts(server.url, email, () => spent);
    const refusedP99 = percentile(refused.times, 99);
    console.log(
      `${label}, ${ROUNDS} bursts of ${BURST} from an address past its limit (no check at all): ` +
        `answers ${[...refused.statuses].map(([s, n]) => `${s} ×${n}`).join(', ')}; ` +
        `/api/health ${refused.times.length} checks, p50 ${ms(percentile(refused.times, 50))}, ` +
        `p99 ${ms(refusedP99)}, max ${ms(refused.times.at(-1)!)}; ` +
        `machine load average ${loadRefused} → ${load()}`,
    );
    result({
      name: `${label}: /api/health p99 during bursts that are all refused (no password check)`,
      value: Math.round(refusedP99 * 10) / 10,
      unit: 'ms',
    });

    const loadBefore2 = load();
    const many = await bursts(server.url, email, (round, i) => `10.2.${round}.${i + 1}`);
    const manyP99 = percentile(many.times, 99);
    console.log(
      `${label}, ${ROUNDS} bursts of ${BURST} from ${BURST} addresses each (every one within its limit): ` +
        `answers ${[...many.statuses].map(([s, n]) => `${s} ×${n}`).join(', ')}; ` +
        `/api/health ${many.times.length} checks, p50 ${ms(percentile(many.times, 50))}, p99 ${ms(manyP99)}, ` +
        `max ${ms(many.times.at(-1)!)}; machine load average ${loadBefore2} → ${load()}`,
    );
    result({
      name: `${label}: /api/health p99 during bursts of ${BURST} from ${BURST} addresses`,
      value: Math.round(manyP99 * 10) / 10,
      unit: 'ms',
    });
  } finally {
    await server.stop();
  }
}

console.log(machineLine());
console.log(
  `machine load average at start: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

// Which K: the same 30 checks 1, 2 and 4 at a time (4: libuv's whole default pool, as before).
const hash = await argon2.hash('the right password', { type: argon2.argon2id });
for (const k of [1, 2, 4]) {
  const r = await checksAtOnce(k, hash);
  console.log(
    `argon2 checks ${k} at a time: ${BURST} in ${r.seconds.toFixed(2)} s (${(BURST / r.seconds).toFixed(1)}/s); ` +
      `event loop delay p99 ${ms(r.loopP99)}; a 4 KB file read p50 ${ms(r.readP50)}, p99 ${ms(r.readP99)}; ` +
      `machine load average ${load()}`,
  );
  result({
    name: `file read p99 while argon2 checks run ${k} at a time`,
    value: Math.round(r.readP99 * 10) / 10,
    unit: 'ms',
  });
}

const baseline = process.env.SIGN_IN_BASELINE_DIR;
if (baseline) await measure('before (baseline)', baseline);
await measure('this checkout');
