// Chat (issue "AI engine and chat"): time to first token and tokens/s through POST /api/chat
// (streaming) against node-llama-cpp called directly, both with the tiny generated GGUF model and
// the same settings; then the openai provider against a local server streaming canned tokens.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { getLlama, LlamaChat, LlamaLogLevel } from 'node-llama-cpp';
import { ensureTinyGguf } from '../apps/server/src/features/ai/tiny-gguf';
import { SYSTEM_PROMPT, replyTokensFor } from '../apps/server/src/features/chat/chat-prompt';
import { startOpenAITestServer } from '../apps/server/test/openai-test-server';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';

const CONTEXT = 1024;
const MAX_TOKENS = replyTokensFor(CONTEXT);
const RUNS = 3;
const QUESTION = 'Hello model, tell me about ink.';

interface Timing {
  ttftMs: number;
  tokensPerSecond: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function direct(modelPath: string): Promise<Timing[]> {
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    maxThreads: os.availableParallelism(),
    logLevel: LlamaLogLevel.error,
  });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({
    sequences: 2,
    contextSize: CONTEXT,
    threads: os.availableParallelism(),
  });
  const out: Timing[] = [];
  for (let i = 0; i < RUNS; i++) {
    const sequence = context.getSequence();
    const chat = new LlamaChat({ contextSequence: sequence, autoDisposeSequence: false });
    const t0 = performance.now();
    let first = 0;
    let tokens = 0;
    await chat.generateResponse(
      [
        { type: 'system', text: SYSTEM_PROMPT },
        { type: 'user', text: QUESTION },
        { type: 'model', response: [] },
      ],
      {
        maxTokens: MAX_TOKENS,
        temperature: 0.7,
        onToken: (t) => {
          if (!first) first = performance.now();
          tokens += t.length;
        },
      },
    );
    const end = performance.now();
    out.push({ ttftMs: first - t0, tokensPerSecond: tokens / ((end - first) / 1000) });
    chat.dispose();
    sequence.dispose();
  }
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  return out;
}

/** One streamed chat through the product; counts SSE token events and the final answer. */
async function throughProduct(url: string, token: string, expectedTokens: number): Promise<Timing> {
  const form = new FormData();
  form.append('text', QUESTION);
  const t0 = performance.now();
  const res = await fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    body: form,
  });
  if (res.status !== 200 || !res.body)
    throw new Error(`chat failed: ${res.status} ${await res.text()}`);
  let first = 0;
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    if (!first && buffer.includes('event: token')) first = performance.now();
    if (buffer.includes('event: error'))
      throw new Error(`chat stream error: ${buffer.slice(-300)}`);
  }
  const end = performance.now();
  if (!buffer.includes('event: done')) throw new Error('chat stream ended without its final event');
  return { ttftMs: first - t0, tokensPerSecond: expectedTokens / ((end - first) / 1000) };
}

async function llamaComparison() {
  const modelPath = ensureTinyGguf();
  const directRuns = await direct(modelPath);
  const server = await startServerProcess({
    MODEL_PATH: modelPath,
    LLAMA_CONTEXT: String(CONTEXT),
    PROMPT_LIMIT: '1000',
  });
  try {
    const token = await server.register();
    // Wait for the background model load.
    for (let i = 0; i < 100; i++) {
      const health = (await (await fetch(`${server.url}/api/ready`)).json()) as { status: string };
      if (health.status === 'ok') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await throughProduct(server.url, token, MAX_TOKENS); // warm-up
    const productRuns: Timing[] = [];
    for (let i = 0; i < RUNS; i++) {
      await fetch(`${server.url}/api/clearAllHistories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
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
    console.log(`tiny GGUF, ${MAX_TOKENS} tokens, median of ${RUNS}:`);
    console.log(
      `  node-llama-cpp directly: first token ${d.ttft.toFixed(1)} ms, ${d.tps.toFixed(0)} tokens/s`,
    );
    console.log(
      `  POST /api/chat (SSE):    first token ${p.ttft.toFixed(1)} ms, ${p.tps.toFixed(0)} tokens/s`,
    );
    const ttftOverhead = ((p.ttft - d.ttft) / d.ttft) * 100;
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
    result({ name: 'llama tokens/s through the product', value: p.tps, unit: 'tokens/s' });
  } finally {
    await server.stop();
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
    for (let i = 0; i < RUNS; i++) {
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
await openaiThroughput();
