// Fairness (issue "Interactive first"): a one-slot OpenAI-compatible model at 300 prompt tokens/s
// and 25 generated tokens/s (a 1.5B model on a small CPU), behind the product's scheduler. Time to
// the first token of a chat when the model is idle, while another user's 200 KB summary runs, and
// while 5 users summarize; when each summary first shows progress; what preemption costs a summary.
import {
  multipart,
  openEventStream,
  type EventStream,
} from '../apps/server/test/event-stream-client';
import { startSlowModelServer, type SlowModelServer } from '../apps/server/test/slow-model-server';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';

const PROMPT_SPEED = 300;
const GENERATION_SPEED = 25;
/** Replies of a realistic length, bounded by what the product asks for. */
const REPLY_TOKENS = 60;

type Server = Awaited<ReturnType<typeof startServerProcess>>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const json = (body: unknown) => ({
  contentType: 'application/json',
  bytes: Buffer.from(JSON.stringify(body)),
});

/** A text of about `kb` kilobytes in paragraphs, distinct per owner. */
function report(owner: string, kb: number): Buffer {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const s = `Entry ${i} of ${owner}'s logbook: the harbour counted ${i % 23} ships and ${i % 7} storms.`;
    parts.push(i % 6 === 5 ? `${s}\n\n` : `${s} `);
    size += s.length + 1;
  }
  return Buffer.from(parts.join(''));
}

/** Milliseconds from sending a chat to its first token. */
async function chatFirstToken(server: Server, token: string, text: string): Promise<number> {
  const started = performance.now();
  const stream = await openEventStream(server.url, {
    path: '/api/chat',
    token,
    body: json({ text }),
  });
  const first = await stream.waitFor((e) => e.event === 'token');
  await stream.ended;
  return first.at - started;
}

async function summarize(server: Server, token: string, doc: Buffer) {
  const started = performance.now();
  const stream: EventStream = await openEventStream(server.url, {
    path: '/api/summarize',
    token,
    body: await multipart({}, { name: 'logbook.txt', bytes: doc }),
  });
  const firstProgress = stream.waitFor((e) => e.event === 'progress').then((e) => e.at - started);
  const done = stream.waitFor((e) => e.event === 'done' || e.event === 'error');
  return {
    stream,
    firstProgressMs: firstProgress,
    /** Milliseconds from the request to the summary. */
    finished: done.then((e) => {
      if (e.event === 'error') throw new Error(`summary failed: ${JSON.stringify(e.data)}`);
      return e.at - started;
    }),
  };
}

/** Model time lost to preemption: the slot time of calls that were interrupted. */
const wastedMs = (model: SlowModelServer, from: number) =>
  model.calls
    .filter((c) => c.aborted && c.startedAt !== undefined && c.arrivedAt >= from)
    .reduce((ms, c) => ms + (c.endedAt! - c.startedAt!), 0);

async function main() {
  console.log(machineLine());
  console.log(
    `model: one slot, ${PROMPT_SPEED} prompt tokens/s, ${GENERATION_SPEED} generated tokens/s, replies of ${REPLY_TOKENS} tokens`,
  );
  const model = await startSlowModelServer({
    promptTokensPerSecond: PROMPT_SPEED,
    generatedTokensPerSecond: GENERATION_SPEED,
    replyTokens: REPLY_TOKENS,
  });
  const server = await startServerProcess({ AI_BASE_URL: model.url, AI_PARALLEL: '1' });
  const users = await Promise.all(
    Array.from({ length: 11 }, (_, i) => server.register(`fair-${i}-${Date.now()}@example.com`)),
  );

  // 1. Idle.
  const idle: number[] = [];
  for (let i = 0; i < 5; i++)
    idle.push(await chatFirstToken(server, users[0]!, `Hello ${i}, how are you?`));
  const idleMs = median(idle);
  console.log(
    `chat first token, idle: ${idle.map((t) => t.toFixed(0)).join(', ')} ms (median ${idleMs.toFixed(0)})`,
  );
  result({ name: 'chat first token, model idle', value: idleMs, unit: 'ms' });

  // 2. A 200 KB summary alone, then again with 5 chats of another user during it.
  const doc = report('alpha', 200);
  let from = performance.now();
  const alone = await summarize(server, users[1]!, doc);
  const aloneMs = await alone.finished;
  console.log(
    `200 KB summary alone: ${(aloneMs / 1000).toFixed(1)} s, first progress after ${(await alone.firstProgressMs).toFixed(0)} ms, ${model.calls.filter((c) => c.arrivedAt >= from).length} model calls`,
  );

  from = performance.now();
  const busy = await summarize(server, users[1]!, doc);
  await busy.stream.waitFor(
    (e) => e.event === 'progress' && (e.data as { done: number }).done >= 1,
  );
  const during: number[] = [];
  let chatSlotMs = 0;
  for (let i = 0; i < 5; i++) {
    const before = model.calls.length;
    during.push(await chatFirstToken(server, users[2]!, `Quick question number ${i}?`));
    const call = model.calls
      .slice(before)
      .find((c) => c.body.messages.some((m) => m.content.includes(`number ${i}?`)));
    if (call?.endedAt && call.startedAt) chatSlotMs += call.endedAt - call.startedAt;
    await sleep(aloneMs / 7);
  }
  const busyMs = await busy.finished;
  const duringMs = Math.max(...during);
  const waste = wastedMs(model, from);
  console.log(
    `chat first token during the summary: ${during.map((t) => t.toFixed(0)).join(', ')} ms`,
  );
  console.log(
    `the summary with 5 chats: ${(busyMs / 1000).toFixed(1)} s (alone ${(aloneMs / 1000).toFixed(1)} s); the chats held the model ${(chatSlotMs / 1000).toFixed(1)} s; interrupted calls lost ${(waste / 1000).toFixed(1)} s`,
  );
  result({
    name: 'chat first token during a 200 KB summary (worst of 5) / idle',
    value: duringMs / idleMs,
    unit: 'x',
    target: '≤ 2x',
    met: duringMs <= 2 * idleMs,
  });
  // What one interruption can cost: a preempted call starts again from its first token, so the
  // loss grows with the length of the summary's calls (bounded summaries make fewer, longer ones).
  const callMs = model.calls
    .filter(
      (c) =>
        c.arrivedAt >= from &&
        !c.aborted &&
        c.startedAt !== undefined &&
        c.endedAt !== undefined &&
        !c.body.messages.some((m) => m.content.includes('Quick question')),
    )
    .map((c) => c.endedAt! - c.startedAt!);
  console.log(
    `the summary's calls: ${callMs.length} of about ${(median(callMs) / 1000).toFixed(1)} s each; ` +
      `${model.calls.filter((c) => c.aborted && c.arrivedAt >= from).length} interrupted, each ` +
      `losing what it had run (the chats came every ${(aloneMs / 7000).toFixed(1)} s)`,
  );
  result({
    name: 'summary time lost to preemption (5 chats)',
    value: (100 * waste) / aloneMs,
    unit: '%',
    target: '≤ 15 %',
    met: waste <= 0.15 * aloneMs,
  });
  result({
    name: 'summary time with 5 chats / alone',
    value: busyMs / aloneMs,
    unit: 'x',
  });

  // 3. Five users summarize 40 KB each while five others chat.
  from = performance.now();
  const summaries = await Promise.all(
    users.slice(1, 6).map((t, i) => summarize(server, t, report(`owner${i}`, 40))),
  );
  const progressMs = await Promise.all(summaries.map((s) => s.firstProgressMs));
  const chats: number[] = [];
  for (const t of users.slice(6, 11)) {
    await sleep(8000);
    chats.push(await chatFirstToken(server, t, 'What is the weather like at sea?'));
  }
  const totals = await Promise.all(summaries.map((s) => s.finished));
  const worstChat = Math.max(...chats);
  const worstProgress = Math.max(...progressMs);
  console.log(
    `5 summaries of 40 KB: first progress ${progressMs.map((t) => t.toFixed(0)).join(', ')} ms; done in ${totals.map((t) => (t / 1000).toFixed(0)).join(', ')} s`,
  );
  console.log(`5 chats meanwhile: first token ${chats.map((t) => t.toFixed(0)).join(', ')} ms`);
  console.log(
    `interrupted calls lost ${(wastedMs(model, from) / 1000).toFixed(1)} s of model time`,
  );
  result({
    name: '5 users summarizing, 5 chatting: worst chat first token / idle',
    value: worstChat / idleMs,
    unit: 'x',
    target: '≤ 2x',
    met: worstChat <= 2 * idleMs,
  });
  result({
    name: '5 users summarizing: latest first progress event',
    value: worstProgress,
    unit: 'ms',
    target: '≤ 2000 ms',
    met: worstProgress <= 2000,
  });

  // 4. For comparison: preemption off, one chat while a summary runs.
  await server.stop();
  await model.idle();
  const noPreempt = await startServerProcess({
    AI_BASE_URL: model.url,
    AI_PARALLEL: '1',
    AI_PREEMPT: 'off',
  });
  const [a, b] = [
    await noPreempt.register('np-a@example.com'),
    await noPreempt.register('np-b@example.com'),
  ];
  const running = await summarize(noPreempt, a, doc);
  await running.stream.waitFor(
    (e) => e.event === 'progress' && (e.data as { done: number }).done >= 1,
  );
  const waited = await chatFirstToken(noPreempt, b, 'Hello while you are busy?');
  // Hung up on purpose: its summary never arrives here (the job goes on without this client).
  running.finished.catch(() => undefined);
  running.firstProgressMs.catch(() => undefined);
  running.stream.hangUp();
  console.log(`AI_PREEMPT=off: chat first token during the summary ${waited.toFixed(0)} ms`);
  result({
    name: 'chat first token during a summary, AI_PREEMPT=off / idle',
    value: waited / idleMs,
    unit: 'x',
  });
  await noPreempt.stop();
  await model.close();
}

await main();
