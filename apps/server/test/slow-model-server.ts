import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson, type OpenAIRequestBody } from './openai-test-server';

/**
 * An OpenAI-compatible server with the costs of a real small model on a CPU, for the scheduler's
 * tests and the fairness bench: ONE slot (requests wait their turn, first come first served,
 * like `llama-server -np 1`), prompts evaluated at a fixed speed and replies generated token by
 * token at another. A client that goes away frees the slot at once, queued or running.
 *
 * Tokens are counted as 4 characters each (what the product estimates for servers that do not
 * report it), so the prompt cost follows what the product sends.
 */
export interface SlowModelOptions {
  promptTokensPerSecond: number;
  generatedTokensPerSecond: number;
  /** Tokens of each reply (bounded by the request's max_tokens); default 20. */
  replyTokens?: number | ((body: OpenAIRequestBody) => number);
}

export interface SlowCall {
  body: OpenAIRequestBody;
  promptTokens: number;
  arrivedAt: number;
  startedAt?: number;
  firstTokenAt?: number;
  endedAt?: number;
  /** The client went away before the reply was complete. */
  aborted: boolean;
}

export interface SlowModelServer {
  url: string;
  calls: SlowCall[];
  /** Resolves when no call is running or waiting. */
  idle(): Promise<void>;
  /** Calls that reach the slot wait until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export const countTokens = (text: string) => Math.ceil(text.length / 4);

export async function startSlowModelServer(opts: SlowModelOptions): Promise<SlowModelServer> {
  const calls: SlowCall[] = [];
  let slot: Promise<void> = Promise.resolve();
  let gate: Promise<void> = Promise.resolve();
  let pending = 0;
  let idleWaiters: (() => void)[] = [];
  const settle = () => {
    if (pending === 0) for (const w of idleWaiters.splice(0)) w();
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' && req.url?.endsWith('/v1/models')) {
      return sendJson(res, 200, { object: 'list', data: [{ id: 'slow-model', object: 'model' }] });
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/v1/chat/completions')) {
      return sendJson(res, 404, { error: { message: 'Not found' } });
    }
    const body = JSON.parse(await readBody(req)) as OpenAIRequestBody;
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const prompt = body.messages.map((m) => m.content).join('\n');
    const call: SlowCall = {
      body,
      promptTokens: countTokens(prompt),
      arrivedAt: performance.now(),
      aborted: false,
    };
    calls.push(call);
    pending += 1;
    // The one slot: each call runs after the previous one has finished or gone.
    const previous = slot;
    let free!: () => void;
    slot = new Promise<void>((resolve) => (free = resolve));
    try {
      await Promise.race([
        previous,
        new Promise<void>((r) => gone.signal.addEventListener('abort', () => r())),
      ]);
      if (gone.signal.aborted) return;
      await gate;
      if (gone.signal.aborted) return;
      call.startedAt = performance.now();
      await run(body, call, res, gone.signal);
    } finally {
      // A call that left the queue early still lets the ones behind it wait for the running one.
      await previous;
      call.aborted = gone.signal.aborted;
      call.endedAt = performance.now();
      pending -= 1;
      free();
      settle();
    }
  }

  async function run(
    body: OpenAIRequestBody,
    call: SlowCall,
    res: ServerResponse,
    gone: AbortSignal,
  ) {
    await sleep((call.promptTokens / opts.promptTokensPerSecond) * 1000, gone);
    if (gone.aborted) return;
    const wanted =
      typeof opts.replyTokens === 'function' ? opts.replyTokens(body) : (opts.replyTokens ?? 20);
    const tokens = Math.max(1, Math.min(wanted, body.max_tokens ?? wanted));
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const perToken = 1000 / opts.generatedTokensPerSecond;
    for (let i = 0; i < tokens; i++) {
      // Each piece is one 4-character token, so the product counts what was generated.
      res.write(chunk({ content: i === 0 ? 'word' : ' wor' }, null));
      call.firstTokenAt ??= performance.now();
      await sleep(perToken, gone);
      if (gone.aborted) return;
    }
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    hold() {
      let open!: () => void;
      gate = new Promise<void>((resolve) => (open = resolve));
      return open;
    },
    idle: () =>
      new Promise<void>((resolve) => {
        if (pending === 0) resolve();
        else idleWaiters.push(resolve);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        idleWaiters = [];
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
