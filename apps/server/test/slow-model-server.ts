import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson, type OpenAIRequestBody } from './openai-test-server';

/**
 * An OpenAI-compatible server with the costs of a real small model on a CPU (llama.cpp's
 * `llama-server -np <slots>`), for the scheduler's tests and the fairness bench:
 * - `slots` requests run at once (default 1); the others wait, first come first served; a
 *   request that names its slot (`id_slot`) runs in that one, waiting for it if busy;
 * - the slots share one processor: with k busy slots each runs at 1/k of the speed;
 * - a prompt is evaluated in batches of 2,048 tokens (`n_batch`) and the reply token by token; a
 *   client that goes away frees its slot only between two of these steps, as llama.cpp does
 *   (a waiting request that goes away leaves the queue at once);
 * - each slot keeps the prompt it last evaluated when the request asks `cache_prompt: true`: a
 *   prompt that starts the same way costs only its new part (llama.cpp's prompt cache, vLLM's
 *   prefix caching), and a request goes to the free slot whose cache fits it best, counted as
 *   llama.cpp does: the common prefix as a share of the new prompt, above
 *   `--slot-prompt-similarity` (0.1, its default); none above it: the least recently used slot.
 *   So a long document prompt that shares only a template's first tokens with a chat does not
 *   take the slot that keeps the chat's system prompt;
 * - a request `refuse` names is answered 400, as llama-server refuses a prompt over its context.
 *
 * Tokens are counted as 4 characters each (what the product estimates for servers that do not
 * report it), so the prompt cost follows what the product sends.
 */
export interface SlowModelOptions {
  promptTokensPerSecond: number;
  generatedTokensPerSecond: number;
  /** Tokens of each reply (bounded by the request's max_tokens); default 20. */
  replyTokens?: number | ((body: OpenAIRequestBody) => number);
  /** Requests run at once (llama.cpp `-np`); default 1. */
  slots?: number;
  /**
   * A request to refuse with 400 and this message, as llama-server refuses a prompt longer than
   * its context ("the request exceeds the available context size"); undefined: it is served. It
   * may take its time (a test decides when the refusal comes).
   */
  refuse?: (body: OpenAIRequestBody) => string | undefined | Promise<string | undefined>;
}

export interface SlowCall {
  body: OpenAIRequestBody;
  promptTokens: number;
  /** Tokens of the prompt found in the slot's cache (not evaluated again). */
  cachedTokens: number;
  arrivedAt: number;
  startedAt?: number;
  firstTokenAt?: number;
  /** Tokens of the reply generated (and sent) so far. */
  generatedTokens: number;
  endedAt?: number;
  /** The client went away before the reply was complete. */
  aborted: boolean;
  /** Answered 400 (`refuse`). */
  refused?: boolean;
}

export interface SlowModelServer {
  url: string;
  calls: SlowCall[];
  /** The most requests that were ever running at once (never more than `slots`, by design). */
  readonly maxRunning: number;
  /** The most requests that were ever open at once, running or waiting for a slot. */
  readonly maxOpen: number;
  /** Resolves when no call is running or waiting. */
  idle(): Promise<void>;
  /** Calls that reach a slot wait until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

/** llama.cpp's default `n_batch`: the prompt is evaluated (and a cancel noticed) per batch. */
export const PROMPT_BATCH_TOKENS = 2048;
const CHARS_PER_TOKEN = 4;
/** llama-server --slot-prompt-similarity: how much of a prompt a slot's cache must share to be chosen. */
const SLOT_PROMPT_SIMILARITY = 0.1;

export const countTokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function commonPrefixTokens(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return Math.floor(i / CHARS_PER_TOKEN);
}

interface SlotState {
  busy: boolean;
  /** When it last took a request: with no cache to reuse, the least recently used goes first. */
  usedAt: number;
  /** The prompt text whose evaluation the slot keeps (up to `cachedChars`). */
  cached: string;
}

export async function startSlowModelServer(opts: SlowModelOptions): Promise<SlowModelServer> {
  const calls: SlowCall[] = [];
  const slots: SlotState[] = Array.from({ length: opts.slots ?? 1 }, () => ({
    busy: false,
    usedAt: 0,
    cached: '',
  }));
  const waiting: (() => void)[] = [];
  let gate: Promise<void> = Promise.resolve();
  let pending = 0;
  let running = 0;
  let maxRunning = 0;
  let maxOpen = 0;
  let idleWaiters: (() => void)[] = [];
  const settle = () => {
    if (pending === 0) for (const w of idleWaiters.splice(0)) w();
  };

  /** One step of work on the shared processor: slower while other slots are busy too. */
  const step = (msAlone: number) => sleep(msAlone * Math.max(1, running));

  /**
   * The slot the request names (llama-server's `id_slot`), or the free slot whose cache shares
   * most with the prompt; waits for it (first come, first served).
   */
  async function takeSlot(
    prompt: string,
    gone: AbortSignal,
    pinned: SlotState | undefined,
  ): Promise<SlotState | undefined> {
    const blocked = () => (pinned ? pinned.busy : !slots.some((s) => !s.busy));
    while (blocked()) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        gone.addEventListener('abort', () => resolve(), { once: true });
      });
      if (gone.aborted) return undefined;
    }
    if (pinned) {
      pinned.busy = true;
      pinned.usedAt = performance.now();
      return pinned;
    }
    const free = slots.filter((s) => !s.busy);
    // llama.cpp (server get_available_slot): the most similar slot above the threshold, else LRU.
    const promptTokens = Math.max(1, countTokens(prompt));
    const similarity = (s: SlotState) => commonPrefixTokens(s.cached, prompt) / promptTokens;
    const similar = free
      .filter((s) => similarity(s) > SLOT_PROMPT_SIMILARITY)
      .sort((a, b) => similarity(b) - similarity(a));
    const slot = similar[0] ?? free.sort((a, b) => a.usedAt - b.usedAt)[0]!;
    slot.busy = true;
    slot.usedAt = performance.now();
    return slot;
  }

  function freeSlot(slot: SlotState) {
    slot.busy = false;
    // Every waiter looks again, in arrival order (one may wait for this very slot).
    for (const wake of waiting.splice(0)) wake();
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' && req.url?.endsWith('/v1/models')) {
      return sendJson(res, 200, { object: 'list', data: [{ id: 'slow-model', object: 'model' }] });
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/v1/chat/completions')) {
      return sendJson(res, 404, { error: { message: 'Not found' } });
    }
    const body = JSON.parse(await readBody(req)) as OpenAIRequestBody & { cache_prompt?: boolean };
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const prompt = body.messages.map((m) => m.content).join('\n');
    const call: SlowCall = {
      body,
      promptTokens: countTokens(prompt),
      cachedTokens: 0,
      generatedTokens: 0,
      arrivedAt: performance.now(),
      aborted: false,
    };
    calls.push(call);
    pending += 1;
    maxOpen = Math.max(maxOpen, pending);
    let slot: SlotState | undefined;
    try {
      const refusal = await opts.refuse?.(body);
      if (refusal !== undefined) {
        call.refused = true;
        return sendJson(res, 400, {
          error: { code: 400, message: refusal, type: 'exceed_context_size_error' },
        });
      }
      const idSlot = (body as { id_slot?: unknown }).id_slot;
      const pinned = typeof idSlot === 'number' && idSlot >= 0 ? slots[idSlot] : undefined;
      slot = await takeSlot(prompt, gone.signal, pinned);
      if (!slot) return;
      await gate;
      // Gone before its first step: it never started.
      if (gone.signal.aborted) return;
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      call.startedAt = performance.now();
      try {
        await run(body, prompt, call, slot, res, gone.signal);
      } finally {
        running -= 1;
      }
    } finally {
      call.aborted = gone.signal.aborted;
      call.endedAt = performance.now();
      if (slot) freeSlot(slot);
      pending -= 1;
      settle();
    }
  }

  async function run(
    body: OpenAIRequestBody & { cache_prompt?: boolean },
    prompt: string,
    call: SlowCall,
    slot: SlotState,
    res: ServerResponse,
    gone: AbortSignal,
  ) {
    const useCache = body.cache_prompt === true;
    const cached = useCache ? commonPrefixTokens(slot.cached, prompt) : 0;
    call.cachedTokens = Math.min(cached, call.promptTokens);
    slot.cached = useCache ? slot.cached.slice(0, call.cachedTokens * CHARS_PER_TOKEN) : '';
    for (let done = call.cachedTokens; done < call.promptTokens;) {
      const batch = Math.min(PROMPT_BATCH_TOKENS, call.promptTokens - done);
      await step((batch / opts.promptTokensPerSecond) * 1000);
      done += batch;
      // What has been evaluated stays in the slot's cache, even if the client goes now.
      if (useCache) slot.cached = prompt.slice(0, done * CHARS_PER_TOKEN);
      if (gone.aborted) return;
    }
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
      call.generatedTokens += 1;
      await step(perToken);
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
    get maxRunning() {
      return maxRunning;
    },
    get maxOpen() {
      return maxOpen;
    },
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
