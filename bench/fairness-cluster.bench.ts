// Fair to every user across processes (issue 25): two app servers and one jobs worker (real
// processes on one PostgreSQL schema, behind nginx: apps/server/test/scale-out) in front of one
// two-slot model stand-in (apps/server/test/slow-model-server.ts: slots sharing one processor,
// 3,000 prompt / 100 generated tokens/s), AI_PARALLEL=2. One user starts 30 summaries of 20 KB,
// then another user one: its time against its time alone, the flood must finish, and the model
// server must never see more than 2 calls at once. Needs TEST_DATABASE_URL, TEST_REDIS_URL, nginx.
import { multipart, openEventStream } from '../apps/server/test/event-stream-client';
import { missingPiece, startCluster } from '../apps/server/test/scale-out/cluster';
import { startSlowModelServer } from '../apps/server/test/slow-model-server';
import { machineLine, result } from './lib/machine';
import { logbook } from './lib/logbook';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function summarize(url: string, token: string, doc: Buffer): Promise<number> {
  const started = performance.now();
  const stream = await openEventStream(url, {
    path: '/api/summarize',
    token,
    body: await multipart({}, { name: 'logbook.txt', bytes: doc }),
  });
  const end = await stream.waitFor((e) => e.event === 'done' || e.event === 'error');
  if (end.event === 'error') throw new Error(`summary failed: ${JSON.stringify(end.data)}`);
  return end.at - started;
}

async function register(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench password', first_name: 'Bench' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function main() {
  console.log(machineLine());
  console.log('(other work may load this machine while it runs: see the report notes)');
  const missing = missingPiece();
  if (missing) {
    console.log(`skipped: ${missing}`);
    return;
  }
  const model = await startSlowModelServer({
    promptTokensPerSecond: 3000,
    generatedTokensPerSecond: 100,
    replyTokens: 60,
    slots: 2,
  });
  const cluster = await startCluster({
    apps: 2,
    env: { AI_BASE_URL: model.url, AI_PARALLEL: '2', JOBS_QUEUED_PER_USER: '30' },
  });
  await cluster.startWorker(/Inkwell worker is running jobs/);
  try {
    const [flooder, other] = [
      await register(cluster.url, `flood-${Date.now()}@example.com`),
      await register(cluster.url, `other-${Date.now()}@example.com`),
    ];
    // A first summary warms the processes up (reader workers, parsers, JIT); the second is timed.
    await summarize(cluster.url, other, logbook(20, 'bravo-warm-up'));
    const alone = await summarize(cluster.url, other, logbook(20, 'bravo-alone'));
    const started = performance.now();
    // Each summary through an app server of its own (alternating), as nginx would spread them.
    const floods = Array.from({ length: 30 }, (_, i) =>
      summarize(cluster.apps[i % 2]!.url, flooder, logbook(20, `flood${i}`)),
    );
    await sleep(1000);
    const during = await summarize(cluster.url, other, logbook(20, 'bravo'));
    const totals = await Promise.all(floods);
    const floodS = (performance.now() - started) / 1000;
    console.log(
      `the other user's summary: alone ${(alone / 1000).toFixed(1)} s, during the flood ${(during / 1000).toFixed(1)} s; ` +
        `the flood's 30 finished in ${floodS.toFixed(0)} s (last ${(Math.max(...totals) / 1000).toFixed(0)} s); ` +
        `model server: at most ${model.maxOpen} calls open at once, ${model.calls.length} calls`,
    );
    result({
      name: "2 app servers + worker, 30-summary flood: another user's summary / alone",
      value: during / alone,
      unit: 'x',
      target: '≤ 3x',
      met: during <= 3 * alone,
    });
    result({
      name: '2 app servers + worker: most calls open at the two-slot model server at once',
      value: model.maxOpen,
      unit: 'calls',
      target: '≤ 2',
      met: model.maxOpen <= 2,
    });
  } finally {
    await cluster.stop();
    await model.close();
  }
}

await main();
