// Chat (issue "AI engine and chat"): time to first token and tokens/s through POST /api/chat
// (streaming) against node-llama-cpp called directly, both with the tiny generated GGUF model and
// the product's own settings (threads, context, sequences, chat template, sampling, prompt); what
// keeping the system prompt evaluated (prompt caching) saves on a larger synthetic model; then the
// openai provider against a local server streaming canned tokens.
import { execFileSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } from 'node-llama-cpp';
import {
  contextOptions,
  llamaOptions,
  samplingOptions,
  toHistory,
  tuningFromConfig,
} from '../apps/server/src/features/ai/engine/llama/llama-tuning';
import {
  ensureTinyGguf,
  writeTinyGguf,
} from '../apps/server/src/features/ai/engine/llama/tiny-gguf';
import { SystemPrefix } from '../apps/server/src/features/ai/engine/llama/system-prefix';
import {
  buildPrompt,
  replyTokensFor,
  SYSTEM_PROMPT,
} from '../apps/server/src/features/chat/chat-prompt';
import { startOpenAITestServer } from '../apps/server/test/openai-test-server';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';
import { encodeForm, send } from './lib/raw-http';

const CONTEXT = 1024;
const SEQUENCES = 2;
const MAX_TOKENS = replyTokensFor(CONTEXT);
/** Alternating direct/product runs: the tiny model's runs are short, and the machine noisy. */
const RUNS = 9;
const OPENAI_RUNS = 3;
const QUESTION = 'Hello model, tell me about ink.';
/** The product's tuning for these settings: the direct run uses exactly the same. */
const TUNING = tuningFromConfig({
  LLAMA_GPU: 'off',
  LLAMA_SEQUENCES: SEQUENCES,
  LLAMA_CONTEXT: CONTEXT,
});

interface Timing {
  ttftMs: number;
  tokensPerSecond: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * node-llama-cpp called the way the product calls it, minus the product: same getLlama and
 * context options, chat wrapper resolved once, prompt built by the product's own function (system
 * prompt + question), same sampling and length bound, and between requests the sequence keeps
 * only the system prompt's tokens (SystemPrefix), as the product's sequences do. `fresh` starts
 * from an empty sequence instead: what the kept system prompt saves.
 */
async function directRunner(modelPath: string, maxTokens = MAX_TOKENS) {
  const llama = await getLlama({ ...llamaOptions(TUNING), logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext(contextOptions(TUNING, model.trainContextSize));
  const chatWrapper = resolveChatWrapper(model);
  const prefix = new SystemPrefix(model, chatWrapper);
  const sequence = context.getSequence();
  const history = toHistory(
    buildPrompt([], QUESTION, {
      contextTokens: context.contextSize,
      replyTokens: maxTokens,
      countTokens: (t) => model.tokenize(t).length,
    }),
  );
  return {
    async run({ fresh = false } = {}): Promise<Timing> {
      if (fresh) await sequence.clearHistory();
      const chat = new LlamaChat({
        contextSequence: sequence,
        chatWrapper,
        autoDisposeSequence: false,
      });
      const t0 = performance.now();
      let first = 0;
      const { metadata } = await chat.generateResponse(history, {
        ...samplingOptions({ maxTokens }, sequence.contextSize),
        // The product streams text chunks: its first token event is the first of these.
        onTextChunk: () => {
          if (!first) first = performance.now();
        },
      });
      const end = performance.now();
      chat.dispose({ disposeSequence: false });
      await prefix.keepOnly(sequence, SYSTEM_PROMPT);
      // The tiny model never samples an end token: every reply, here and through the product,
      // runs to the same length bound, so tokens/s is that bound over the streaming time.
      if (metadata.stopReason !== 'maxTokens')
        throw new Error(`the direct run stopped early (${metadata.stopReason})`);
      return { ttftMs: first - t0, tokensPerSecond: maxTokens / ((end - first) / 1000) };
    },
    close: () => llama.dispose(),
  };
}

/** The question as the web app sends it: a multipart form. */
function chatForm() {
  const form = new FormData();
  form.append('text', QUESTION);
  return encodeForm(form);
}

/** One streamed chat through the product; TTFT runs from sending the request to the first token event. */
async function throughProduct(url: string, token: string, expectedTokens: number): Promise<Timing> {
  const { body, contentType } = await chatForm();
  let first = 0;
  let buffer = '';
  const t0 = performance.now();
  const status = await send(
    `${url}/api/chat`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'text/event-stream',
        'content-type': contentType,
        'content-length': String(body.length),
      },
      body,
    },
    (chunk) => {
      buffer += chunk;
      if (!first && buffer.includes('event: token')) first = performance.now();
    },
  );
  const end = performance.now();
  if (status !== 200) throw new Error(`chat failed: ${status} ${buffer}`);
  if (buffer.includes('event: error')) throw new Error(`chat stream error: ${buffer.slice(-300)}`);
  if (!buffer.includes('event: done')) throw new Error('chat stream ended without its final event');
  return { ttftMs: first - t0, tokensPerSecond: expectedTokens / ((end - first) / 1000) };
}

/** An authenticated request that does no chat work (auth, one DB read, a JSON reply): the floor. */
async function authenticatedRoundTrip(url: string, token: string): Promise<number> {
  const t0 = performance.now();
  await send(`${url}/api/chat/usage`, {
    method: 'GET',
    headers: { authorization: `Bearer ${token}` },
  });
  return performance.now() - t0;
}

async function llamaComparison() {
  const modelPath = ensureTinyGguf();
  const server = await startServerProcess({
    MODEL_PATH: modelPath,
    LLAMA_CONTEXT: String(CONTEXT),
    LLAMA_SEQUENCES: String(SEQUENCES),
    PROMPT_LIMIT: '1000',
  });
  const directly = await directRunner(modelPath);
  try {
    const token = await server.register();
    // Wait for the background model load.
    for (let i = 0; i < 100; i++) {
      const health = (await (await fetch(`${server.url}/api/ready`)).json()) as { status: string };
      if (health.status === 'ok') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const clear = () =>
      fetch(`${server.url}/api/clearAllHistories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
    // Warm-up of both, then alternating runs, so both see the same machine load.
    await directly.run();
    await throughProduct(server.url, token, MAX_TOKENS);
    await authenticatedRoundTrip(server.url, token);
    const directRuns: Timing[] = [];
    const freshRuns: Timing[] = [];
    const productRuns: Timing[] = [];
    const floor: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      freshRuns.push(await directly.run({ fresh: true }));
      directRuns.push(await directly.run());
      await clear();
      floor.push(await authenticatedRoundTrip(server.url, token));
      productRuns.push(await throughProduct(server.url, token, MAX_TOKENS));
    }
    const d = {
      ttft: median(directRuns.map((r) => r.ttftMs)),
      tps: median(directRuns.map((r) => r.tokensPerSecond)),
    };
    const p = {
      ttft: median(productRuns.map((r) => r.ttftMs)),
      tps: median(productRuns.map((r) => r.tokensPerSecond)),
    };
    const freshTtft = median(freshRuns.map((r) => r.ttftMs));
    const roundTrip = median(floor);
    const added = p.ttft - d.ttft;
    console.log(
      `tiny GGUF, ${MAX_TOKENS} tokens, ${TUNING.threads} thread(s), median of ${RUNS} alternating runs ` +
        `(machine load average ${loadavg()[0]!.toFixed(1)}):`,
    );
    console.log(
      `  node-llama-cpp directly: first token ${d.ttft.toFixed(1)} ms, ${d.tps.toFixed(0)} tokens/s`,
    );
    console.log(
      `  POST /api/chat (SSE):    first token ${p.ttft.toFixed(1)} ms, ${p.tps.toFixed(0)} tokens/s`,
    );
    console.log(
      `  (both keep the system prompt evaluated between requests; from an empty sequence the ` +
        `direct first token takes ${freshTtft.toFixed(1)} ms)`,
    );
    // Where the product's added first-token time goes: what every authenticated request costs,
    // measured alone, and the rest (the chat's own work before and after the model).
    console.log(
      `  first token: +${added.toFixed(1)} ms through the product (the ≤ 10 % target allows ` +
        `${(d.ttft / 10).toFixed(1)} ms) = ${roundTrip.toFixed(1)} ms any authenticated request ` +
        `(GET /api/chat/usage: HTTP, token check, one DB read) + ${(added - roundTrip).toFixed(1)} ms ` +
        `chat work (multipart form, prompt reservation, history, prompt, SSE)`,
    );
    const ttftOverhead = (added / d.ttft) * 100;
    const tpsOverhead = ((d.tps - p.tps) / d.tps) * 100;
    result({
      name: 'llama time-to-first-token overhead (product vs direct)',
      value: ttftOverhead,
      unit: '%',
      target: '≤ 10 %',
      met: ttftOverhead <= 10,
    });
    result({
      name: 'llama tokens/s overhead (product vs direct)',
      value: tpsOverhead,
      unit: '%',
      target: '≤ 10 %',
      met: tpsOverhead <= 10,
    });
    result({ name: 'llama time to first token directly', value: d.ttft, unit: 'ms' });
    result({ name: 'llama time to first token through the product', value: p.ttft, unit: 'ms' });
    result({
      name: 'llama time to first token directly, from an empty sequence',
      value: freshTtft,
      unit: 'ms',
    });
    result({ name: 'authenticated request round trip (floor)', value: roundTrip, unit: 'ms' });
    result({ name: 'llama tokens/s through the product', value: p.tps, unit: 'tokens/s' });
  } finally {
    await directly.close();
    await server.stop();
  }
}

/**
 * What keeping the system prompt saves where prompt evaluation dominates, as with any real model:
 * a synthetic model of 13 M parameters (the tiny one's 0.1 M are all fixed costs), called directly
 * from an empty sequence and with the system prompt kept.
 */
async function promptCaching() {
  const file = writeTinyGguf(path.join(tmpdir(), 'inkwell-bench', 'medium-llama.gguf'), {
    embedding: 512,
    feedForward: 1408,
    blocks: 4,
  });
  const directly = await directRunner(file, 8);
  try {
    await directly.run({ fresh: true }); // warm-up
    const fresh: number[] = [];
    const kept: number[] = [];
    for (let i = 0; i < 5; i++) {
      fresh.push((await directly.run({ fresh: true })).ttftMs);
      kept.push((await directly.run()).ttftMs);
    }
    const [f, k] = [median(fresh), median(kept)];
    console.log(
      `prompt caching, synthetic 13 M-parameter model (${statSync(file).size >> 20} MiB), chat ` +
        `prompt, median of 5: first token ${f.toFixed(0)} ms from an empty sequence, ` +
        `${k.toFixed(0)} ms with the system prompt kept (${(f / k).toFixed(1)}× faster)`,
    );
    result({ name: 'first token, 13 M-parameter model, empty sequence', value: f, unit: 'ms' });
    result({ name: 'first token, 13 M-parameter model, system prompt kept', value: k, unit: 'ms' });
  } finally {
    await directly.close();
    rmSync(file, { force: true });
  }
}

async function openaiThroughput() {
  const TOKENS = 20_000;
  const canned = Array.from({ length: TOKENS }, (_, i) => ` t${i % 100}`);
  const ai = await startOpenAITestServer({ reply: () => canned });
  // The product on one core (taskset), the canned server in this process.
  let taskset = false;
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    taskset = true;
  } catch {
    /* not available: the figure is then for the whole machine */
  }
  const server = await startServerProcess({ AI_BASE_URL: ai.url, PROMPT_LIMIT: '1000' });
  try {
    if (taskset)
      execFileSync('taskset', ['-a', '-p', '-c', '0', String(server.pid)], { stdio: 'ignore' });
    const token = await server.register();
    await throughProduct(server.url, token, TOKENS); // warm-up
    const runs: number[] = [];
    for (let i = 0; i < OPENAI_RUNS; i++) {
      await fetch(`${server.url}/api/clearAllHistories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      runs.push((await throughProduct(server.url, token, TOKENS)).tokensPerSecond);
    }
    const tps = median(runs);
    console.log(
      `openai provider, ${TOKENS} canned tokens through POST /api/chat${taskset ? ' (server pinned to one core)' : ''}: ${tps.toFixed(0)} tokens/s`,
    );
    result({
      name: 'openai provider streamed tokens/s through the product (one core)',
      value: tps,
      unit: 'tokens/s',
      target: '≥ 5000',
      met: tps >= 5000,
    });
  } finally {
    await server.stop();
    await ai.close();
  }
}

console.log(machineLine());
await llamaComparison();
await promptCaching();
await openaiThroughput();
