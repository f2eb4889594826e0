import type { Agent } from 'node:http';
import { request } from 'node:http';
import {
  HOSTILE_PATH_VALUES,
  HOSTILE_QUERIES,
  hostileBodies,
  type HostileBody,
} from './hostile-bodies';

/**
 * The hostile-input matrix: every operation of the API document (`GET /api/docs`) sent
 * malformed path parameters, query strings and bodies, signed in and signed out, over real
 * HTTP. Used by test/security/hostile-input.test.ts and bench/hostile-input.bench.ts.
 */
export interface Operation {
  method: string;
  /** OpenAPI form: /api/preview_file/{id}. */
  path: string;
  pathParams: string[];
  /** Fields of its JSON body, when it declares one. */
  bodyFields: string[];
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        requestBody?: { content?: Record<string, { schema?: { properties?: object } }> };
      }
    >
  >;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        bodyFields: Object.keys(schema?.properties ?? {}),
      });
    }
  }
  return ops;
}

/** The operations whose handler reads a multipart form (the web app's forms). */
export const FORM_OPERATIONS = [
  'POST /api/upload_file',
  'POST /api/chat',
  'POST /api/summarize',
  'POST /api/askQuestions',
  'POST /api/translate',
  'POST /api/translate_stored_file',
  'POST /api/proofread',
  'POST /api/bulk-sentiment-analysis',
  'POST /api/accessibility-analysis',
  'POST /api/seo-analysis',
  'POST /api/site-analysis',
];

export interface HostileRequest {
  operation: string;
  what: string;
  method: string;
  path: string;
  signedIn: boolean;
  body?: HostileBody;
}

export interface MatrixContext {
  /** A valid value of a path parameter, per operation (a file the user owns, ...). */
  validId(op: Operation): string;
  /**
   * `all`: every body for every operation. `representative`: every path value and query, and
   * one body of every kind (wrong types, depth, broken JSON, prototype keys, unreadable, broken
   * and empty multipart, no file, broken files, hostile names, duplicates, forms, other types),
   * a different one for each operation in turn; the form routes get every unreadable body.
   */
  bodies: 'all' | 'representative';
}

const key = (op: Operation) => `${op.method} ${op.path}`;
const fill = (op: Operation, value: string) => op.path.replace(/\{\w+\}/g, value);

/** Every request of the matrix, signed in and signed out. */
export function hostileRequests(ops: Operation[], ctx: MatrixContext): HostileRequest[] {
  const out: HostileRequest[] = [];
  for (const [turn, op] of ops.entries()) {
    const operation = key(op);
    const valid = fill(op, ctx.validId(op));
    const add = (what: string, path: string, body?: HostileBody) => {
      for (const signedIn of [true, false])
        out.push({ operation, what, method: op.method, path, signedIn, body });
    };
    if (op.pathParams.length > 0)
      for (const value of HOSTILE_PATH_VALUES) add(`path ${value.slice(0, 20)}`, fill(op, value));
    for (const query of HOSTILE_QUERIES) add(`query ${query.slice(0, 30)}`, valid + query);
    if (op.method === 'GET') continue;
    const bodies = hostileBodies(op.bodyFields);
    const readsForms = FORM_OPERATIONS.includes(operation);
    const chosen = ctx.bodies === 'all' ? bodies : representative(bodies, turn, readsForms);
    for (const body of chosen) add(body.name, valid, body);
  }
  return out;
}

/** One body of each kind, a different one per turn; a form route gets every unreadable one. */
function representative(bodies: HostileBody[], turn: number, readsForms: boolean) {
  const kinds = new Map<string, HostileBody[]>();
  for (const b of bodies) kinds.set(b.kind, [...(kinds.get(b.kind) ?? []), b]);
  return [...kinds.values()].flatMap((same) =>
    readsForms && same[0]!.unreadable ? same : [same[turn % same.length]!],
  );
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  ms: number;
}

/**
 * Sends one request over node:http (fetch would refuse or rewrite some of these on its way
 * out). An event stream is answered by its headers: its status is what matters here.
 */
export function send(
  baseUrl: string,
  req: { method: string; path: string; token?: string; body?: HostileBody; forwardedFor?: string },
  agent: Agent,
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (req.token) headers.authorization = `Bearer ${req.token}`;
    if (req.forwardedFor) headers['x-forwarded-for'] = req.forwardedFor;
    if (req.body) {
      if (req.body.contentType !== undefined) headers['content-type'] = req.body.contentType;
      headers['content-length'] = req.body.body.length;
    }
    const r = request(`${baseUrl}${req.path}`, { method: req.method, headers, agent });
    r.on('error', reject);
    r.on('response', (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      const done = (text: string) =>
        resolve({
          status: res.statusCode ?? 0,
          contentType,
          text,
          ms: performance.now() - started,
        });
      if (contentType.startsWith('text/event-stream')) {
        res.destroy();
        return done('');
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    r.end(req.body?.body);
  });
}

/** Runs `work` over `items`, `concurrency` at a time, in order of start. */
export async function inPool<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** What is wrong with an answer: a 5xx, or an error that is not `{ "error": "<text>" }`. */
export function problemWith(answer: Answer, operation: string): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 160)}`;
  if (answer.status < 400) return undefined;
  // Health and readiness answer their own shape, by design (ready: 503 = not ready).
  if (operation === 'GET /api/health' || operation === 'GET /api/ready') return undefined;
  if (!answer.contentType.startsWith('application/json'))
    return `error ${answer.status} as ${answer.contentType || 'no content type'}`;
  try {
    const parsed = JSON.parse(answer.text) as { error?: unknown };
    if (typeof parsed.error !== 'string' || parsed.error === '')
      return `error ${answer.status} without an error text: ${answer.text.slice(0, 160)}`;
  } catch {
    return `error ${answer.status} not JSON: ${answer.text.slice(0, 160)}`;
  }
  return undefined;
}
