// The embedded engine at a real model's size (issue "Fair to every user", point 6): a random-weight
// GGUF of ~100 M parameters in F32 (~414 MB, written by the project's own tiny-gguf writer into a
// temporary directory, deleted afterwards), run by node-llama-cpp directly and through the product
// (POST /api/chat, LLAMA_SEQUENCES=auto). Figures: the product's first token and generation speed
// against node-llama-cpp alone on the same prompt; a chat's first token while another user's
// 60 KB summary runs, against idle; the worst first token of 4 users chatting at once, against one.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } from 'node-llama-cpp';
import {
  contextOptions,
  llamaOptions,
  samplingOptions,
  toHistory,
  tuningFromConfig,
} from '../apps/server/src/features/ai/llama-model';
import { writeTinyGguf } from '../apps/server/src/features/ai/tiny-gguf';
import { buildPrompt, replyTokensFor } from '../apps/server/src/features/chat/chat-prompt';
import { multipart, openEventStream } from '../apps/server/test/event-stream-client';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';
import { logbook } from './lib/logbook';

/** A short context keeps the random model's replies (it never stops by itself) to 256 tokens. */
const CONTEXT = 1024;
const REPLY_TOKENS = replyTokensFor(CONTEXT);
const RUNS = 3;
const TUNING = tuningFromConfig({ LLAMA_GPU: 'off', LLAMA_SEQUENCES: 1, LLAMA_CONTEXT: CONTEXT });
/** ~103 M parameters: 8 blocks of width 1024 (feed-forward 2816), F32. */
const REAL_SIZE = { embedding: 1024, feedForward: 2816, blocks: 8, heads: 16, contextLength: 4096 };

type Server = Awaited<ReturnType<typeof startServerProcess>>;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => `load average ${loadavg()[0]!.toFixed(1)}`;
const json = (body: unknown) => ({
  contentType: 'application/json',
  bytes: Buffer.from(JSON.stringify(body)),
});
const question = (who: string, i: number) => `Hello, I am ${who} (${i}). What is ink made of?`;

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
        ...samplingOptions({ maxTokens: REPLY_TOKENS }, sequence.contextSize),
        onTextChunk: () => {
          if (!first) first = performance.now();
        },
      });
      const end = performance.now();
      chat.dispose({ disposeSequence: false });
      return { ttftMs: first - t0, tokensPerSecond: REPLY_TOKENS / ((end - first) / 1000) };
    },
    close: () => llama.dispose(),
  };
}

/**
 * A chat through the product, in a new topic: its first token, and the whole reply with `whole`; otherwise the
 * reply is stopped on the server after its first token (as the Stop button does) and has ended
 * when this returns, so it takes nothing from the next measurement.
 */
async function chat(server: Server, token: string, text: string, { whole = false } = {}) {
  // Each measured chat opens a new topic: its prompt holds no earlier exchange, so every figure
  // compares the same prompt length.
  const cleared = await fetch(`${server.url}/api/clearAllHistories`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!cleared.ok) throw new Error(`new topic failed: ${cleared.status}`);
  const t0 = performance.now();
  const stream = await openEventStream(server.url, {
    path: '/api/chat',
    token,
    body: json({ text }),
  });
  const first = await stream.waitFor((e) => e.event === 'token' || e.event === 'error');
  if (first.event === 'error') throw new Error(`chat failed: ${JSON.stringify(first.data)}`);
  if (!whole) {
    const reply = await stream.waitFor((e) => e.event === 'reply');
    const { id } = reply.data as { id: number };
    const stopped = await fetch(`${server.url}/api/chat/replies/${id}/stop`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    if (!stopped.ok) throw new Error(`stop failed: ${stopped.status}`);
  }
  const done = await stream.waitFor((e) => e.event === 'done' || e.event === 'error');
  if (done.event === 'error') throw new Error(`chat failed: ${JSON.stringify(done.data)}`);
  return {
    ttftMs: first.at - t0,
    endedAt: done.at,
    tokensPerSecond: whole ? REPLY_TOKENS / ((done.at - first.at) / 1000) : 0,
  };
}

async function main() {
  console.log(machineLine());
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-bench-embedded-'));
  const file = writeTinyGguf(path.join(dir, 'real-size.gguf'), REAL_SIZE);
  const mib = statSync(file).size / 2 ** 20;
  console.log(
    `model: random-weight llama GGUF, ${mib.toFixed(0)} MiB F32, ${REAL_SIZE.blocks} blocks of ` +
      `${REAL_SIZE.embedding}; context ${CONTEXT}, replies of ${REPLY_TOKENS} tokens, ` +
      `${TUNING.threads} llama thread(s); ${load()} at start (the machine is shared)`,
  );
  const server = await startServerProcess({
    MODEL_PATH: file,
    LLAMA_CONTEXT: String(CONTEXT),
    PROMPT_LIMIT: '1000',
    SUMMARY_MAX_TOKENS: '32000',
  });
  const direct = await directRunner(file);
  try {
    const users = await Promise.all(
      Array.from({ length: 6 }, (_, i) => server.register(`emb-${i}-${Date.now()}@example.com`)),
    );
    for (let i = 0; i < 600; i++) {
      const health = (await (await fetch(`${server.url}/api/ready`)).json()) as { status: string };
      if (health.status === 'ok') break;
      await new Promise((r) => setTimeout(r, 500));
    }

    // 1. The product against node-llama-cpp alone, same prompt, alternating runs.
    await chat(server, users[0]!, question('warm-up', 0));
    const d: { ttftMs: number; tokensPerSecond: number }[] = [];
    const p: typeof d = [];
    for (let i = 0; i < RUNS; i++) {
      d.push(await direct.run(question('ada', i)));
      p.push(await chat(server, users[0]!, question('ada', i), { whole: true }));
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
      name: 'embedded: first token, product / node-llama-cpp alone',
      value: pT / dT,
      unit: 'x',
    });
    result({
      name: 'embedded: generation speed, node-llama-cpp alone / product',
      value: dS / pS,
      unit: 'x',
    });
    result({ name: 'embedded: first token, node-llama-cpp alone', value: dT, unit: 'ms' });

    // 2. One user's first token when idle.
    const idle: number[] = [];
    for (let i = 0; i < RUNS; i++)
      idle.push((await chat(server, users[1]!, question('bo', i))).ttftMs);
    const idleMs = median(idle);
    console.log(
      `chat first token, idle: ${idle.map((t) => t.toFixed(0)).join(', ')} ms (${load()})`,
    );
    result({ name: 'embedded: chat first token, idle', value: idleMs, unit: 'ms' });

    // 3. Four users at once.
    const four = await Promise.all(
      [2, 3, 4, 5].map((u) => chat(server, users[u]!, question(`user${u}`, 0))),
    );
    const worst = Math.max(...four.map((r) => r.ttftMs));
    console.log(
      `4 users at once: first tokens ${four.map((r) => r.ttftMs.toFixed(0)).join(', ')} ms (${load()})`,
    );
    result({
      name: 'embedded: worst first token of 4 users at once / one user',
      value: worst / idleMs,
      unit: 'x',
      target: '≤ 4.5x',
      met: worst / idleMs <= 4.5,
    });

    // 3b. A chat while three other users' whole replies generate: it waits for none of them.
    const others = [2, 3, 4].map((u) =>
      chat(server, users[u]!, question(`user${u}`, 1), { whole: true }),
    );
    // Their replies are under way once their prompts are evaluated (first tokens).
    await new Promise((r) => setTimeout(r, 2 * idleMs));
    const beside = await chat(server, users[5]!, question('user5', 1));
    const ended = await Promise.all(others);
    const stillGenerating = ended.filter((o) => o.endedAt > beside.endedAt).length;
    console.log(
      `chat first token while 3 other replies generate: ${beside.ttftMs.toFixed(0)} ms; ` +
        `${stillGenerating} of 3 replies still generating when it had ended (${load()})`,
    );
    result({
      name: 'embedded: chat first token while 3 other replies generate / one user',
      value: beside.ttftMs / idleMs,
      unit: 'x',
      target: '≤ 4.5x, before the other replies end',
      met: beside.ttftMs / idleMs <= 4.5 && stillGenerating === 3,
    });

    // 4. Chats while another user's 60 KB summary runs.
    const t0 = performance.now();
    const summary = await openEventStream(server.url, {
      path: '/api/summarize',
      token: users[0]!,
      body: await multipart({}, { name: 'logbook.txt', bytes: logbook(60) }),
    });
    await summary.waitFor((e) => e.event === 'progress');
    // Its model calls are under way (prompt evaluation of the first chunks).
    await new Promise((r) => setTimeout(r, 3000));
    const during: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      during.push((await chat(server, users[1]!, question('bo', 10 + i))).ttftMs);
      if (summary.events.some((e) => e.event === 'done' || e.event === 'error'))
        console.log('  (the summary ended before this chat)');
    }
    const duringMs = median(during);
    console.log(
      `chat first token during a 60 KB summary (started ${((performance.now() - t0) / 1000).toFixed(0)} s ago): ` +
        `${during.map((t) => t.toFixed(0)).join(', ')} ms (${load()})`,
    );
    result({
      name: 'embedded: chat first token during a summary / idle',
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
