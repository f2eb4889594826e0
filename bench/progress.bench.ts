// Progress estimates (issue 29): how far the time left each progress event shows is from the time
// the work really took from that moment on. A one-slot model at 300 prompt tokens/s and 25
// generated tokens/s (the fairness bench's stand-in) summarizes 200 KB; then a 5-page local site
// is audited (no model call but the insights). Median and worst error, in seconds and as a share
// of the whole run.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  multipart,
  openEventStream,
  type EventStream,
} from '../apps/server/test/event-stream-client';
import { startSlowModelServer } from '../apps/server/test/slow-model-server';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';
import { logbook } from './lib/logbook';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Five linked pages, a robots.txt and a sitemap, on loopback. */
async function startSite() {
  let origin = '';
  const site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    if (path === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
    const n = /^\/p\/(\d)$/.exec(path)?.[1];
    if (n !== undefined && Number(n) < 5) {
      const next = Number(n) + 1 < 5 ? `<a href="/p/${Number(n) + 1}">Next page</a>` : '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${n}</title></head>` +
          `<body><main><h1>Page ${n}</h1><p>${'Lighthouses guide ships. '.repeat(30)}</p>` +
          `<img src="/lamp.png">${next}</main></body></html>`,
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  return { url: `${origin}/p/0`, close: () => new Promise((r) => site.close(r)) };
}

/** Each progress event's shown time left against the real time left, in seconds. */
async function errors(stream: EventStream) {
  const end = await stream.waitFor((e) => e.event === 'done' || e.event === 'error');
  if (end.event === 'error') throw new Error(`failed: ${JSON.stringify(end.data)}`);
  type Progress = { eta_s: number | null; done: number; total: number; stage: string };
  const shown = stream.events
    .filter((e) => e.event === 'progress')
    .map((e) => ({ at: e.at, ...(e.data as Progress), eta: (e.data as Progress).eta_s }))
    .filter((e): e is typeof e & { eta: number } => e.eta !== null);
  const first = stream.events[0]!.at;
  // The trace, thinned to about 12 lines: when, what was shown, what was true.
  const step = Math.max(1, Math.ceil(shown.length / 12));
  for (const [i, e] of shown.entries()) {
    if (i % step !== 0 && i !== shown.length - 1) continue;
    console.log(
      `  at ${((e.at - first) / 1000).toFixed(1)} s: ${e.stage} ${e.done}/${e.total}, shown ` +
        `${e.eta} s left, really ${((end.at - e.at) / 1000).toFixed(1)} s`,
    );
  }
  return {
    totalS: (end.at - first) / 1000,
    events: shown.length,
    errorsS: shown.map((e) => Math.abs(e.eta - (end.at - e.at) / 1000)),
  };
}

function report_(name: string, r: Awaited<ReturnType<typeof errors>>) {
  const med = median(r.errorsS);
  const worst = Math.max(...r.errorsS);
  console.log(
    `${name}: ${r.totalS.toFixed(1)} s, ${r.events} events with a time left; error median ` +
      `${med.toFixed(1)} s, worst ${worst.toFixed(1)} s (${((100 * worst) / r.totalS).toFixed(0)} % of the run)`,
  );
  result({ name: `${name}: time-left error, median`, value: med, unit: 's' });
  result({ name: `${name}: time-left error, worst`, value: worst, unit: 's' });
}

async function main() {
  console.log(machineLine());
  const model = await startSlowModelServer({
    promptTokensPerSecond: 300,
    generatedTokensPerSecond: 25,
    replyTokens: 60,
  });
  const site = await startSite();
  const server = await startServerProcess({
    AI_BASE_URL: model.url,
    AI_PARALLEL: '1',
    FETCH_ALLOW_HOSTS: '127.0.0.1',
  });
  try {
    const token = await server.register(`progress-${Date.now()}@example.com`);
    // A first small call, so the model's speed has been measured once (as on a running server).
    const warm = await openEventStream(server.url, {
      path: '/api/summarize',
      token,
      body: await multipart({}, { name: 'warm.txt', bytes: logbook(2) }),
    });
    await warm.waitFor((e) => e.event === 'done' || e.event === 'error');

    const summary = await openEventStream(server.url, {
      path: '/api/summarize',
      token,
      body: await multipart({}, { name: 'logbook.txt', bytes: logbook(200) }),
    });
    report_('200 KB summary', await errors(summary));

    const body = new URLSearchParams({ url: site.url, max_pages: '5' }).toString();
    const audit = await openEventStream(server.url, {
      path: '/api/site-analysis',
      token,
      body: { contentType: 'application/x-www-form-urlencoded', bytes: Buffer.from(body) },
    });
    report_('5-page site audit', await errors(audit));
  } finally {
    await server.stop();
    await site.close();
    await model.close();
  }
}

await main();
