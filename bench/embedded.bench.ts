// The embedded engine at a real model's size and the product's defaults (issue 37): a random-weight
// GGUF of ~100 M parameters in F32 (~414 MB, written by the project's own tiny-gguf writer into a
// temporary directory, deleted afterwards), run by node-llama-cpp directly and through the product
// (POST /api/chat) with LLAMA_CONTEXT, LLAMA_SEQUENCES and LLAMA_THREADS left at their defaults and
// questions of ~400 characters. Figures: the product's first token and generation speed against
// node-llama-cpp alone on the same prompt; a chat's first token while another user's 60 KB summary
// runs, against idle; the worst first token of 4 users chatting at once, against one; a follow-up's
// first token in a conversation of 20 exchanges against a fresh topic's.
// EMBEDDED_CONTEXT=1024 runs the former short-context variant (an extra line, not the target);
// EMBEDDED_ONLY=followup (the conversation) or EMBEDDED_ONLY=four (idle, then 4 users) one part.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } from 'node-llama-cpp';
import { loadConfig } from '../apps/server/src/config';
import {
  contextOptions,
  llamaOptions,
  samplingOptions,
  toHistory,
  tuningFromConfig,
} from '../apps/server/src/features/ai/engine/llama/llama-tuning';
import { writeTinyGguf } from '../apps/server/src/features/ai/engine/llama/tiny-gguf';
import { buildPrompt, replyTokensFor } from '../apps/server/src/features/chat/chat-prompt';
import { multipart, openEventStream } from '../apps/server/test/event-stream-client';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';
import { logbook } from './lib/logbook';

/** The product's default context unless the short-context variant is asked for. */
const CONTEXT = Number(process.env.EMBEDDED_CONTEXT ?? 0) || undefined;
const VARIANT = CONTEXT ? ` (short context ${CONTEXT}, extra)` : '';
const RUNS = 3;
/** A person reading a reply before the follow-up (a 48-token reply of ~80 characters: short). */
const READ_MS = 2_000;
/** Reply tokens read before a chat is stopped (a random model never ends by itself). */
const READ_TOKENS = 48;
/** ~103 M parameters: 8 blocks of width 1024 (feed-forward 2816), F32. */
const REAL_SIZE = { embedding: 1024, feedForward: 2816, blocks: 8, heads: 16, contextLength: 4096 };

type Server = Awaited<ReturnType<typeof startServerProcess>>;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => `load average ${loadavg()[0]!.toFixed(1)}`;
const json = (body: unknown) => ({
  contentType: 'application/json',
  bytes: Buffer.from(JSON.stringify(body)),
});
/** A question of ~400 characters, as people ask them. */
const question = (who: string, i: number) =>
  `Hello, I am ${who} (${i}). I am writing a short history of writing inks for a school ` +
  'magazine and would like to check my facts before it goes to print. What were the first inks ' +
  'made of, how did iron gall ink replace carbon ink in European manuscripts, and why do some ' +
  'old letters fade to brown while others stay black? One sentence on ballpoint ink would help ' +
  'too. Please keep it short.';

/** The configuration the product runs with (its defaults, or the short-context variant). */
const CONFIG = loadConfig({
  DATA_DIR: tmpdir(),
  JWT_SECRET: 'x'.repeat(64),
  ...(CONTEXT ? { LLAMA_CONTEXT: String(CONTEXT) } : {}),
});
const TUNING = tuningFromConfig({ ...CONFIG, LLAMA_GPU: 'off', LLAMA_SEQUENCES: 1 });
const REPLY_TOKENS = replyTokensFor(CONFIG.LLAMA_CONTEXT);

/** node-llama-cpp alone, from an empty sequence each time, on the prompt the product builds. */
async function directRunner(modelPath: string) {
  const llama = await getLlama({ ...llamaOptions(TUNING), logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext(contextOptions(TUNING, model.trainContextSize));
  const chatWrapper = resolveChatWrapper(model);
  const sequence = context.getSequence();
  return {
    async run(text: string) {
      await sequence.clearHistory();
      const history = toHistory(
        buildPrompt([], text, {
          contextTokens: context.contextSize,
          replyTokens: REPLY_TOKENS,
          countTokens: (t) => model.tokenize(t).length,
        }),
      );
      const chat = new LlamaChat({
        contextSequence: sequence,
        chatWrapper,
        autoDisposeSequence: false,
      });
      const t0 = performance.now();
      let first = 0;
      await chat.generateResponse(history, {
        ...samplingOptions({ maxTokens: READ_TOKENS }, sequence.contextSize),
        onTextChunk: () => {
          if (!first) first = performance.now();
        },
      });
      const end = performance.now();
      chat.dispose({ disposeSequence: false });
      return { ttftMs: first - t0, tokensPerSecond: (READ_TOKENS - 1) / ((end - first) / 1000) };
    },
    close: () => llama.dispose(),
  };
}

/**
 * A chat through the product: its first token, and with `read` that many token events (for the
 * generation speed); then the reply is stopped on the server (as the Stop button does) and has
 * ended when this returns, so it takes nothing from the next measurement. `newTopic`: the prompt
 * holds no earlier exchange, so figures compare the same prompt length.
 */
async function chat(
  server: Server,
  token: string,
  text: string,
  { read = 1, newTopic = true, beforeStop }: ChatOptions = {},
) {
  if (newTopic) {
    const cleared = await fetch(`${server.url}/api/clearAllHistories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    if (!cleared.ok) throw new Error(`new topic failed: ${cleared.status}`);
  }
  const t0 = performance.now();
  const stream = await openEventStream(server.url, {
    path: '/api/chat',
    token,
    body: json({ text }),
  });
  const first = await stream.waitFor((e) => e.event === 'token' || e.event === 'error');
  if (first.event === 'error') throw new Error(`chat failed: ${JSON.stringify(first.data)}`);
  const tokensSoFar = () => stream.events.filter((e) => e.event === 'token').length;
  const last = await stream.waitFor(
    (e) =>
      (e.event === 'token' && tokensSoFar() >= read) || e.event === 'done' || e.event === 'error',
  );
  const tokens = tokensSoFar();
  await beforeStop;
  const reply = await stream.waitFor((e) => e.event === 'reply');
  const { id } = reply.data as { id: number };
  const stopped = await fetch(`${server.url}/api/chat/replies/${id}/stop`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!stopped.ok && stopped.status !== 404) throw new Error(`stop failed: ${stopped.status}`);
  const done = await stream.waitFor((e) => e.event === 'done' || e.event === 'error');
  if (done.event === 'error') throw new Error(`chat failed: ${JSON.stringify(done.data)}`);
  return {
    ttftMs: first.at - t0,
    endedAt: done.at,
    /** The reply as stored (what the next prompt's history holds). */
    replyChars: String((done.data as { response?: string }).response ?? '').length,
    tokensPerSecond: read > 1 ? (tokens - 1) / ((last.at - first.at) / 1000) : 0,
  };
}

interface ChatOptions {
  read?: number;
  newTopic?: boolean;
  /** The reply is stopped only once this settles (replies kept generating meanwhile). */
  beforeStop?: Promise<unknown>;
}

async function main() {
  console.log(machineLine());
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-bench-embedded-'));
  const file = writeTinyGguf(path.join(dir, 'real-size.gguf'), REAL_SIZE);
  const mib = statSync(file).size / 2 ** 20;
  const server = await startServerProcess({
    MODEL_PATH: file,
    ...(CONTEXT ? { LLAMA_CONTEXT: String(CONTEXT) } : {}),
    PROMPT_LIMIT: '1000',
    SUMMARY_MAX_TOKENS: '32000',
  });
  const direct = await directRunner(file);
  try {
    // Each part signs its users up when it starts: an access token outlives no long part on a
    // loaded machine.
    const signUp = (n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          server.register(`emb-${i}-${performance.now()}@example.com`),
        ),
      );
    const users = await signUp(2);
    let ready: { status: string; model?: { name?: string } } = { status: '' };
    for (let i = 0; i < 600; i++) {
      ready = (await (await fetch(`${server.url}/api/ready`)).json()) as typeof ready;
      if (ready.status === 'ok') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(
      `model: random-weight llama GGUF, ${mib.toFixed(0)} MiB F32, ${REAL_SIZE.blocks} blocks of ` +
        `${REAL_SIZE.embedding}; product settings: LLAMA_CONTEXT=${CONFIG.LLAMA_CONTEXT}` +
        `${CONTEXT ? '' : ' (default)'}, LLAMA_SEQUENCES=${CONFIG.LLAMA_SEQUENCES} (default), ` +
        `LLAMA_THREADS default = ${TUNING.threads}; replies up to ${REPLY_TOKENS} tokens (read ` +
        `${READ_TOKENS} then stopped); question of ${question('ada', 0).length} characters; ` +
        `${load()} at start (the machine is shared)`,
    );

    // EMBEDDED_ONLY=followup runs the conversation part alone (part 4); EMBEDDED_ONLY=four the
    // idle chats and the four users at once (parts 2 and 3).
    const only = process.env.EMBEDDED_ONLY;
    const all = only === undefined;
    let idleMs = 0;
    // The first chat evaluates the system message, which later ones copy.
    if (all || only === 'four') await chat(server, users[0]!, question('warm-up', 0));
    if (all) {
      // 1. The product against node-llama-cpp alone, same prompt, alternating runs.
      const d: { ttftMs: number; tokensPerSecond: number }[] = [];
      const p: typeof d = [];
      for (let i = 0; i < RUNS; i++) {
        d.push(await direct.run(question('ada', i)));
        p.push(await chat(server, users[0]!, question('ada', i), { read: READ_TOKENS }));
      }
      await direct.close();
      const [dT, pT] = [median(d.map((r) => r.ttftMs)), median(p.map((r) => r.ttftMs))];
      const [dS, pS] = [
        median(d.map((r) => r.tokensPerSecond)),
        median(p.map((r) => r.tokensPerSecond)),
      ];
      console.log(
        `same prompt, median of ${RUNS} alternating runs (${load()}): node-llama-cpp alone first token ` +
          `${dT.toFixed(0)} ms (empty sequence), ${dS.toFixed(1)} tokens/s; product ${pT.toFixed(0)} ms ` +
          `(system prompt kept), ${pS.toFixed(1)} tokens/s`,
      );
      result({
        name: `embedded: first token, product / node-llama-cpp alone${VARIANT}`,
        value: pT / dT,
        unit: 'x',
      });
      result({
        name: `embedded: generation speed, node-llama-cpp alone / product${VARIANT}`,
        value: dS / pS,
        unit: 'x',
      });
      result({
        name: `embedded: first token, node-llama-cpp alone${VARIANT}`,
        value: dT,
        unit: 'ms',
      });
    }
    if (all || only === 'four') {
      // 2. One user's first token when idle.
      const idle: number[] = [];
      for (let i = 0; i < RUNS; i++)
        idle.push((await chat(server, users[1]!, question('bo', i))).ttftMs);
      idleMs = median(idle);
      console.log(
        `chat first token, idle: ${idle.map((t) => t.toFixed(0)).join(', ')} ms (${load()})`,
      );
      result({ name: `embedded: chat first token, idle${VARIANT}`, value: idleMs, unit: 'ms' });

      // 3. Four users at once.
      users.push(...(await signUp(4)));
      const four = await Promise.all(
        [2, 3, 4, 5].map((u) => chat(server, users[u]!, question(`user${u}`, 0))),
      );
      const worst = Math.max(...four.map((r) => r.ttftMs));
      console.log(
        `4 users at once: first tokens ${four.map((r) => r.ttftMs.toFixed(0)).join(', ')} ms (${load()})`,
      );
      result({
        name: `embedded: worst first token of 4 users at once / one user${VARIANT}`,
        value: worst / idleMs,
        unit: 'x',
        target: '≤ 4.5x',
        met: worst / idleMs <= 4.5,
      });
    }
    if (all) {
      // 3b. A chat while three other users' replies generate: it waits for none of them.
      let besideEnded!: () => void;
      const besideDone = new Promise<void>((r) => (besideEnded = r));
      const others = [2, 3, 4].map((u) =>
        chat(server, users[u]!, question(`user${u}`, 1), { read: 2, beforeStop: besideDone }),
      );
      // Their replies are under way once their prompts are evaluated (first tokens).
      await new Promise((r) => setTimeout(r, 3 * idleMs));
      const beside = await chat(server, users[5]!, question('user5', 1));
      besideEnded();
      await Promise.all(others);
      console.log(
        `chat first token while 3 other replies generate: ${beside.ttftMs.toFixed(0)} ms (${load()})`,
      );
      result({
        name: `embedded: chat first token while 3 other replies generate / one user${VARIANT}`,
        value: beside.ttftMs / idleMs,
        unit: 'x',
        target: '≤ 4.5x',
        met: beside.ttftMs / idleMs <= 4.5,
      });
    }
    // 4. A follow-up in a conversation of 20 exchanges against a fresh topic, same user.
    if (!all && only !== 'followup') return;
    // Follow-ups and another user's fresh topics alternate, so both see the same machine load.
    const [talker, newcomer] = (await signUp(2)) as [string, string];
    await chat(server, talker, question('cy', 0), { read: READ_TOKENS });
    for (let i = 1; i < 20; i++)
      await chat(server, talker, question('cy', i), { read: READ_TOKENS, newTopic: false });
    await chat(server, newcomer, question('di', 0));
    // The person reads each reply before the next message (READ_MS, while nobody else asks: the
    // engine readies the follow-up then); "at once" follow-ups come with no reading, right after
    // the other user's chat. Each kind alternates with a fresh topic.
    const followUps: number[] = [];
    const atOnce: number[] = [];
    const replyChars: number[] = [];
    const fresh: number[] = [];
    for (let i = 20; i < 20 + 2 * RUNS; i += 2) {
      await new Promise((r) => setTimeout(r, READ_MS));
      const r = await chat(server, talker, question('cy', i), {
        read: READ_TOKENS,
        newTopic: false,
      });
      followUps.push(r.ttftMs);
      replyChars.push(r.replyChars);
      fresh.push((await chat(server, newcomer, question('di', i))).ttftMs);
      const quick = await chat(server, talker, question('cy', i + 1), {
        read: READ_TOKENS,
        newTopic: false,
      });
      atOnce.push(quick.ttftMs);
      fresh.push((await chat(server, newcomer, question('di', i + 1))).ttftMs);
    }
    const [followMs, atOnceMs, freshMs] = [median(followUps), median(atOnce), median(fresh)];
    const ms = (xs: number[]) => xs.map((t) => t.toFixed(0)).join(', ');
    console.log(
      `follow-up in a conversation of 20+ exchanges, each reply read for ${READ_MS / 1000} s: ` +
        `${ms(followUps)} ms; at once (no reading, right after another user's chat): ` +
        `${ms(atOnce)} ms; another user's fresh topic, alternating: ${ms(fresh)} ms; stored ` +
        `replies of ${replyChars.join(', ')} characters (${load()})`,
    );
    result({
      name: `embedded: follow-up first token in a 20-exchange conversation / fresh topic (reply read for ${READ_MS / 1000} s)${VARIANT}`,
      value: followMs / freshMs,
      unit: 'x',
      target: '≤ 1.5x',
      met: followMs / freshMs <= 1.5,
    });
    result({
      name: `embedded: follow-up first token in a 20-exchange conversation / fresh topic (sent at once, extra)${VARIANT}`,
      value: atOnceMs / freshMs,
      unit: 'x',
    });

    if (!all) return;
    // 5. Chats while another user's 60 KB summary runs.
    const [owner, chatter] = (await signUp(2)) as [string, string];
    const t0 = performance.now();
    const summary = await openEventStream(server.url, {
      path: '/api/summarize',
      token: owner,
      body: await multipart({}, { name: 'logbook.txt', bytes: logbook(60) }),
    });
    await summary.waitFor((e) => e.event === 'progress');
    // Its model calls are under way (prompt evaluation of the first chunks), as in issue 37.
    await new Promise((r) => setTimeout(r, 8000));
    const during: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      during.push((await chat(server, chatter, question('bo', 10 + i))).ttftMs);
      if (summary.events.some((e) => e.event === 'done' || e.event === 'error'))
        console.log('  (the summary ended before this chat)');
    }
    const duringMs = median(during);
    console.log(
      `chat first token during a 60 KB summary (started ${((performance.now() - t0) / 1000).toFixed(0)} s ago): ` +
        `${during.map((t) => t.toFixed(0)).join(', ')} ms (${load()})`,
    );
    result({
      name: `embedded: chat first token during a summary / idle${VARIANT}`,
      value: duringMs / idleMs,
      unit: 'x',
      target: '≤ 2x',
      met: duringMs / idleMs <= 2,
    });
    summary.hangUp();
  } finally {
    await direct.close().catch(() => {});
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
