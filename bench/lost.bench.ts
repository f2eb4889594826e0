// Nothing a user did is lost (issue 26): 50 random reloads (a client hanging up mid-reply or
// mid-summary, then coming back), Stops and logouts during load (other users' summaries keep the
// model busy), against the real server in its own process and a local model server that streams
// slowly on one shared slot. Counts the replies and results lost: a question missing from the
// history, a reply stored shorter than what its client had seen or not finished after a reload
// or a logout, a summary without its result after a reload. Target: 0.
import { multipart, openEventStream } from '../apps/server/test/event-stream-client';
import { startSlowModelServer } from '../apps/server/test/slow-model-server';
import { readChatStream } from '../apps/server/src/features/chat/chat-stream.test-helper';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';

const ACTIONS = 50;
const PASSWORD = 'bench password';
type Action = 'reload' | 'stop' | 'logout' | 'reload-summary';
const KINDS: Action[] = ['reload', 'stop', 'logout', 'reload-summary'];

/** A small seeded generator: the same run every time. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}
const json = (body: unknown) => ({
  contentType: 'application/json',
  bytes: Buffer.from(JSON.stringify(body)),
});
const doc = Buffer.from(
  Array.from({ length: 300 }, (_, i) => `Line ${i} of the logbook notes ${i % 7} gulls.`).join(' '),
);

interface Message {
  id: number;
  role: string;
  text: string;
  stopped?: boolean;
  streaming?: boolean;
}

async function main() {
  console.log(machineLine());
  const model = await startSlowModelServer({
    promptTokensPerSecond: 20_000,
    generatedTokensPerSecond: 150,
    replyTokens: 60,
  });
  const server = await startServerProcess({
    AI_BASE_URL: model.url,
    AI_MODEL: 'slow-model',
    PROMPT_LIMIT: '1000',
    JOB_STALE_MS: '5000',
  });
  const api = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    });
  const login = async (email: string) => {
    const res = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const history = async (token: string) =>
    ((await (await api('/api/chat/history', token)).json()) as { messages: Message[] }).messages;

  // The load: two users summarizing, one after another, all along.
  let loading = true;
  const load = [0, 1].map(async (i) => {
    const token = await server.register(`load-${i}@example.com`);
    while (loading) {
      const s = await openEventStream(server.url, {
        path: '/api/summarize',
        token,
        body: await multipart({}, { name: `load-${i}.txt`, bytes: doc }),
      });
      await s.ended;
    }
  });

  const next = random(26);
  const counts: Record<Action, number> = { reload: 0, stop: 0, logout: 0, 'reload-summary': 0 };
  const lost: string[] = [];
  const started = performance.now();
  for (let n = 0; n < ACTIONS; n++) {
    const kind = KINDS[Math.floor(next() * KINDS.length)]!;
    counts[kind] += 1;
    const email = `user-${n}@example.com`;
    let token = await server.register(email);
    if (kind === 'reload-summary') {
      const s = await openEventStream(server.url, {
        path: '/api/summarize',
        token,
        body: await multipart({}, { name: 'mine.txt', bytes: doc }),
      });
      const { id } = (await s.waitFor((e) => e.event === 'job')).data as { id: string };
      s.hangUp();
      const back = await readChatStream(
        await api(`/api/jobs/${id}/events`, token, { headers: { accept: 'text/event-stream' } }),
      );
      const job = (await (await api(`/api/jobs/${id}`, token)).json()) as {
        state: string;
        result: { summary?: string } | null;
      };
      if (back.error || job.state !== 'done' || !job.result?.summary) lost.push(`${n} ${kind}`);
      continue;
    }
    const question = `Question ${n}: tell me about gulls`;
    const s = await openEventStream(server.url, {
      path: '/api/chat',
      token,
      body: json({ text: question }),
    });
    const replyId = ((await s.waitFor((e) => e.event === 'reply')).data as { id: number }).id;
    // Some of the reply has arrived: what the client saw.
    await s.waitFor((e) => e.event === 'token');
    const seen = () =>
      s.events
        .filter((e) => e.event === 'token')
        .map((e) => (e.data as { text: string }).text)
        .join('');
    let expectStopped = false;
    if (kind === 'stop') {
      await api(`/api/chat/replies/${replyId}/stop`, token, { method: 'POST' });
      await s.ended;
      expectStopped = true;
    } else if (kind === 'reload') {
      s.hangUp();
    } else {
      s.hangUp();
      await api('/api/logout', token, { method: 'POST' });
      token = await login(email);
    }
    const sawBefore = seen();
    // The page that comes back follows the reply to its end.
    const followed = await readChatStream(
      await api(`/api/chat/replies/${replyId}/events`, token, {
        headers: { accept: 'text/event-stream' },
      }),
    );
    const messages = await history(token);
    const q = messages.find((m) => m.role === 'user' && m.text === question);
    const reply = messages.find((m) => m.id === replyId);
    const ok =
      q !== undefined &&
      reply !== undefined &&
      !reply.streaming &&
      reply.text.startsWith(sawBefore) &&
      followed.done?.response === reply.text &&
      Boolean(reply.stopped) === expectStopped &&
      (expectStopped || reply.text.length > sawBefore.length || !followed.done?.stopped);
    if (!ok) lost.push(`${n} ${kind}: ${JSON.stringify({ reply, saw: sawBefore.length })}`);
  }
  const seconds = (performance.now() - started) / 1000;
  loading = false;
  await Promise.all(load);
  console.log(
    `${ACTIONS} actions in ${seconds.toFixed(0)} s: ${Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}; lost: ${lost.length}`,
  );
  for (const l of lost) console.log(`lost: ${l}`);
  result({
    name: 'replies and results lost across 50 random reloads, stops and logouts under load',
    value: lost.length,
    unit: 'lost',
    target: '0',
    met: lost.length === 0,
  });
  await server.stop();
  await model.close();
}

await main();
