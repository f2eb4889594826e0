// Progress estimates (issues 29 and 39): how far the time left each progress event shows is from
// the time the work really took from that moment on. A one-slot model of fixed cost (300 prompt
// tokens/s, 50 generated tokens/s) whose replies vary in length (a summary's from a tenth of its
// bound to all of it, a translation's about as long as its text) summarizes 200 KB, translates
// 20 KB and audits a 5-page local site (no model call but the insights). Median and worst error,
// in seconds; and the share of the figures after the first tenth of each run that are within
// 0.5x-2x of the time really left (issue 39's target), with the worst ratio; beside it, the
// figures as a person reads them, where a range shown ("about 10-40 s left") is right when it
// holds the time really left.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  multipart,
  openEventStream,
  type EventStream,
} from '../apps/server/test/event-stream-client';
import type { OpenAIRequestBody } from '../apps/server/test/openai-test-server';
import { countTokens, startSlowModelServer } from '../apps/server/test/slow-model-server';
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

/** A number in [0, 1) from a text, so a reply's length follows its prompt, run after run. */
function hashShare(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0) / 2 ** 32;
}

/** Reply lengths that vary as real ones do: a summary's part, or a translation of its text. */
function replyTokens(body: OpenAIRequestBody): number {
  const max = body.max_tokens ?? 256;
  const user = body.messages.findLast((m) => m.role === 'user');
  const text = typeof user?.content === 'string' ? user.content : '';
  const share = hashShare(text);
  if (body.messages.some((m) => String(m.content).includes('professional translator')))
    return Math.min(max, Math.round(countTokens(text) * (0.8 + 0.4 * share)));
  return Math.max(8, Math.round(max * (0.1 + 0.9 * share)));
}

/** Each progress event's shown time left against the real time left, in seconds. */
async function errors(stream: EventStream) {
  const end = await stream.waitFor((e) => e.event === 'done' || e.event === 'error');
  if (end.event === 'error') throw new Error(`failed: ${JSON.stringify(end.data)}`);
  type Progress = {
    eta_s: number | null;
    eta_range_s?: [number, number];
    done: number;
    total: number;
    stage: string;
    heading?: string;
  };
  const shown = stream.events
    .filter((e) => e.event === 'progress')
    .map((e) => ({ at: e.at, ...(e.data as Progress), eta: (e.data as Progress).eta_s }))
    .filter((e): e is typeof e & { eta: number } => e.eta !== null);
  const first = stream.events[0]!.at;
  // The trace, thinned to about 14 lines: when, what was shown, what was true.
  const step = Math.max(1, Math.ceil(shown.length / 14));
  for (const [i, e] of shown.entries()) {
    if (i % step !== 0 && i !== shown.length - 1) continue;
    const range = e.eta_range_s ? ` (${e.eta_range_s[0]}-${e.eta_range_s[1]} s)` : '';
    console.log(
      `  at ${((e.at - first) / 1000).toFixed(1)} s: ${e.heading ?? e.stage} (${e.done}/${e.total}), ` +
        `shown ${e.eta} s left${range}, really ${((end.at - e.at) / 1000).toFixed(1)} s`,
    );
  }
  const totalMs = end.at - first;
  // Issue 39's target: after the first tenth of the run, within 0.5x-2x of the time really left.
  const late = shown
    .filter((e) => e.at - first >= totalMs / 10 && end.at - e.at >= 1000)
    .map((e) => {
      const really = (end.at - e.at) / 1000;
      const ratio = e.eta / really;
      // As a person reads it: a range is right when it holds the time really left (a range of
      // 2x either way spans as much as 0.5x-2x of one figure), one figure within 0.5x-2x.
      const asShown = e.eta_range_s
        ? e.eta_range_s[0] <= really && really <= e.eta_range_s[1]
        : ratio >= 0.5 && ratio <= 2;
      return { ratio, offS: e.eta - really, asShown };
    });
  return {
    totalS: totalMs / 1000,
    events: shown.length,
    errorsS: shown.map((e) => Math.abs(e.eta - (end.at - e.at) / 1000)),
    late,
  };
}

/** Site audits run one after another, each on a site of its own. */
const SITE_AUDITS = 5;

/** Prints the figures of one run (or of several together); `results`: also as figures. */
function report_(name: string, r: Awaited<ReturnType<typeof errors>>, results = true) {
  const med = median(r.errorsS);
  const worst = Math.max(...r.errorsS);
  const outside = r.late.filter((l) => l.ratio < 0.5 || l.ratio > 2);
  const wrongAsShown = r.late.filter((l) => !l.asShown);
  // Off by a factor but by at most 10 s: the last reply's unknown length, nothing to distrust.
  const outsideBy10s = outside.filter((l) => Math.abs(l.offS) > 10);
  const worstRatio = r.late.reduce((w, l) => {
    const off = l.ratio >= 1 ? l.ratio : 1 / Math.max(l.ratio, 1e-6);
    return Math.max(w, off);
  }, 1);
  console.log(
    `${name}: ${r.totalS.toFixed(1)} s, ${r.events} events with a time left; error median ` +
      `${med.toFixed(1)} s, worst ${worst.toFixed(1)} s (${((100 * worst) / r.totalS).toFixed(0)} % of the run); ` +
      `after the first tenth ${r.late.length - outside.length} of ${r.late.length} within 0.5x-2x ` +
      `(${outsideBy10s.length} outside by more than 10 s), worst ${worstRatio.toFixed(2)}x; ` +
      `as shown (a range holding the time really left, or one figure within 0.5x-2x) ` +
      `${r.late.length - wrongAsShown.length} of ${r.late.length}`,
  );
  if (!results) return;
  result({ name: `${name}: time-left error, median`, value: med, unit: 's' });
  result({ name: `${name}: time-left error, worst`, value: worst, unit: 's' });
  result({
    name: `${name}: figures after the first tenth outside 0.5x-2x`,
    value: outside.length,
    unit: `of ${r.late.length}`,
  });
  result({ name: `${name}: worst ratio after the first tenth`, value: worstRatio, unit: 'x' });
  result({
    name: `${name}: figures after the first tenth wrong as shown (range or 0.5x-2x)`,
    value: wrongAsShown.length,
    unit: `of ${r.late.length}`,
  });
}

async function main() {
  console.log(machineLine());
  const model = await startSlowModelServer({
    promptTokensPerSecond: 300,
    generatedTokensPerSecond: 50,
    replyTokens,
  });
  const sites = [];
  for (let i = 0; i < SITE_AUDITS; i++) sites.push(await startSite());
  const server = await startServerProcess({
    AI_BASE_URL: model.url,
    AI_PARALLEL: '1',
    // A small context: more, smaller parts, and translations of a few minutes.
    AI_CONTEXT_TOKENS: '4096',
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

    const translation = await openEventStream(server.url, {
      path: '/api/translate',
      token,
      body: await multipart(
        { target_language: 'French' },
        { name: 'logbook.txt', bytes: logbook(20) },
      ),
    });
    report_('20 KB translation', await errors(translation));

    // A site audit's time left hangs on its one model call, whose reply may be 10 to 100 % of
    // its allowance: one audit is one draw. Several sites (each on its own port, so each prompt,
    // and with it the reply's length, differs) show how the figures fare across lengths.
    const audits: Awaited<ReturnType<typeof errors>>[] = [];
    for (const [i, site] of sites.entries()) {
      const body = new URLSearchParams({ url: site.url, max_pages: '5' }).toString();
      const audit = await openEventStream(server.url, {
        path: '/api/site-analysis',
        token,
        body: { contentType: 'application/x-www-form-urlencoded', bytes: Buffer.from(body) },
      });
      const r = await errors(audit);
      audits.push(r);
      report_(i === 0 ? '5-page site audit' : `5-page site audit ${i + 1}`, r, i === 0);
    }
    report_(`5-page site audits, all ${audits.length}`, {
      totalS: audits.reduce((t, a) => t + a.totalS, 0),
      events: audits.reduce((t, a) => t + a.events, 0),
      errorsS: audits.flatMap((a) => a.errorsS),
      late: audits.flatMap((a) => a.late),
    });
  } finally {
    await server.stop();
    for (const site of sites) await site.close();
    await model.close();
  }
}

await main();
