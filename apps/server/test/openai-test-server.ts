import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small, real OpenAI-compatible Chat Completions server for tests (POST /v1/chat/completions,
 * streaming and not). It records every request body so tests can assert what the model was sent,
 * and can be told to fail in the ways real servers fail: an HTTP error, a slow answer, a stream
 * that dies half-way.
 */
export interface OpenAIMessage {
  role: string;
  content: string;
}

export interface OpenAIRequestBody {
  model?: string;
  messages: OpenAIMessage[];
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
  [key: string]: unknown;
}

/** What the server sends back: text (split into pieces when streaming) or pieces given exactly. */
export type ReplyFn = (messages: OpenAIMessage[], body: OpenAIRequestBody) => string | string[];

export interface FailureMode {
  /** Answer with this HTTP status and an OpenAI-style error body. */
  status?: number;
  /** Wait this long before answering (headers included). */
  delayMs?: number;
  /** Wait this long between streamed pieces. */
  pieceDelayMs?: number;
  /** When streaming, destroy the socket after this many pieces. */
  dieAfterPieces?: number;
  /** When streaming, stop after this many pieces until `releaseHeld()` (a reply mid-way). */
  holdAfterPieces?: number;
}

export interface OpenAITestServerOptions extends FailureMode {
  reply?: ReplyFn;
  /** Serves POST /v1/embeddings with this text → vector (the OpenAI Embeddings protocol). */
  embed?: (text: string) => number[] | Promise<number[]>;
  /** Required `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
}

export interface OpenAITestServer {
  /** Base URL ending in /v1, as AI_BASE_URL expects. */
  url: string;
  /** Every request body received, in order. */
  requests: OpenAIRequestBody[];
  /** Every POST /v1/embeddings body received, in order. */
  embeddingRequests: { model?: string; input: string | string[] }[];
  /** Headers of every request, in the same order. */
  headers: IncomingMessage['headers'][];
  setReply(reply: ReplyFn): void;
  setFailure(failure: FailureMode): void;
  /** POST /v1/embeddings answers this status with an error (a model down); undefined: served. */
  setEmbeddingsFailure(status: number | undefined): void;
  /** Lets every reply held by `holdAfterPieces` go on (a later one holds again). */
  releaseHeld(): void;
  /** Requests whose client went away before the answer was complete. */
  aborted(): number;
  /** Stops listening (a crashed or stopped model server): connections are refused. */
  stop(): Promise<void>;
  /** Listens again on the same port after stop(). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Default reply: deterministic, echoing the first words of the last user message. */
export const echoReply: ReplyFn = (messages) => {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const words = (lastUser?.content ?? '').split(/\s+/).filter(Boolean).slice(0, 8);
  return `You said: ${words.join(' ')}`;
};

/** Splits text into word-ish pieces (each keeps its leading space), like a tokenizer would. */
export function splitPieces(text: string): string[] {
  return text.match(/\s*\S+|\s+/g) ?? [];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startOpenAITestServer(
  opts: OpenAITestServerOptions = {},
): Promise<OpenAITestServer> {
  let reply: ReplyFn = opts.reply ?? echoReply;
  let failure: FailureMode = {
    status: opts.status,
    delayMs: opts.delayMs,
    pieceDelayMs: opts.pieceDelayMs,
    dieAfterPieces: opts.dieAfterPieces,
  };
  const requests: OpenAIRequestBody[] = [];
  const headers: IncomingMessage['headers'][] = [];
  let abortedCount = 0;
  let seq = 0;
  let release!: () => void;
  let released = new Promise<void>((r) => (release = r));

  const embeddingRequests: OpenAITestServer['embeddingRequests'] = [];
  let embeddingsFailure: number | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    // The model list: what the product's health check and model lookup ask for.
    if (req.method === 'GET' && req.url?.endsWith('/v1/models')) {
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: 'test-model', object: 'model', owned_by: 'test' }],
      });
    }
    if (req.method === 'POST' && opts.embed && req.url?.endsWith('/v1/embeddings')) {
      const body = JSON.parse(await readBody(req)) as OpenAITestServer['embeddingRequests'][number];
      embeddingRequests.push(body);
      if (embeddingsFailure)
        return sendJson(res, embeddingsFailure, {
          error: { message: 'The embeddings model is down', type: 'server_error' },
        });
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      const vectors = await Promise.all(inputs.map((text) => opts.embed!(text)));
      return sendJson(res, 200, {
        object: 'list',
        data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
        model: body.model ?? 'test-embeddings',
        usage: { prompt_tokens: 0, total_tokens: 0 },
      });
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/v1/chat/completions')) {
      return sendJson(res, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    }
    const raw = await readBody(req);
    let body: OpenAIRequestBody;
    try {
      body = JSON.parse(raw) as OpenAIRequestBody;
    } catch {
      return sendJson(res, 400, {
        error: { message: 'Invalid JSON', type: 'invalid_request_error' },
      });
    }
    requests.push(body);
    headers.push(req.headers);
    let gone = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        gone = true;
        abortedCount += 1;
      }
    });

    const f = failure;
    if (f.delayMs) await sleep(f.delayMs);
    if (gone) return;
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'auth' } });
    }
    if (f.status && f.status >= 400) {
      return sendJson(res, f.status, {
        error: { message: `Test failure ${f.status}`, type: 'server_error' },
      });
    }

    const out = reply(body.messages ?? [], body);
    const pieces = Array.isArray(out) ? out : splitPieces(out);
    const id = `chatcmpl-test-${++seq}`;
    const model = body.model ?? 'test-model';
    const created = Math.floor(Date.now() / 1000);

    if (!body.stream) {
      const content = pieces.join('');
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 0, completion_tokens: pieces.length, total_tokens: pieces.length },
      });
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (let i = 0; i < pieces.length; i++) {
      if (gone) return;
      if (f.dieAfterPieces !== undefined && i >= f.dieAfterPieces) return die(res);
      if (i === f.holdAfterPieces) await released;
      if (f.pieceDelayMs) await sleep(f.pieceDelayMs);
      if (gone) return;
      res.write(chunk({ content: pieces[i] }, null));
    }
    if (f.dieAfterPieces !== undefined && pieces.length <= f.dieAfterPieces) return die(res);
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: String(err), type: 'server_error' } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    headers,
    setReply(r) {
      reply = r;
    },
    setFailure(f) {
      failure = f;
    },
    releaseHeld() {
      release();
      released = new Promise<void>((r) => (release = r));
    },
    setEmbeddingsFailure(status) {
      embeddingsFailure = status;
    },
    aborted: () => abortedCount,
    stop,
    restart: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: stop,
  };
}

/** Simulates a crash: what was written reaches the client, then the connection drops with no [DONE]. */
async function die(res: ServerResponse) {
  await sleep(20);
  res.socket?.destroy();
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
