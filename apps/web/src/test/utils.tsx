import type { ReactElement } from 'react';
import type { Job } from '@inkwell/contract';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { VirtuosoMockContext } from 'react-virtuoso';
import { vi } from 'vitest';
import { AppProviders } from '../app/App';
import { createQueryClient } from '../lib/query-client';
import { session } from '../lib/session';

export interface MockRequest {
  /** Path after /api/, e.g. "user" or "token/refresh". */
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  method: string;
  headers: Headers;
  body: unknown;
}
export type MockHandler = (
  req: MockRequest,
) => Response | Promise<Response> | Promise<Response | undefined> | undefined;

export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * Stubs fetch. The handler answers API calls; anything it leaves unanswered gets a 404, and
 * /api/logs gets 204 unless handled. Returns the mock to inspect calls.
 */
export function mockFetch(handler: MockHandler) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^.*?\/api\//, '');
    const raw = init.body;
    let body: unknown = raw;
    if (typeof raw === 'string') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const req = {
      path,
      query: url.searchParams,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body,
    };
    const res = await handler(req);
    if (res) return res;
    if (path === 'logs') return new Response(null, { status: 204 });
    return json(404, { error: 'Not found' });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

/**
 * GET /api/jobs and GET /api/jobs/:id as the server answers them: `jobs` (newest first) in pages
 * of `pageSize` without results, the cursor being where the next page starts; a job alone with
 * its result. Undefined for other requests.
 */
export function jobsApi(req: MockRequest, jobs: Job[], pageSize = 50): Response | undefined {
  if (req.method !== 'GET') return undefined;
  if (req.path === 'jobs') {
    const start = Number(req.query.get('cursor') ?? 0);
    const end = start + pageSize;
    return json(200, {
      jobs: jobs.slice(start, end).map(({ result: _result, ...summary }) => summary),
      next_cursor: end < jobs.length ? String(end) : null,
    });
  }
  const one = /^jobs\/([^/]+)$/.exec(req.path);
  const job = one && jobs.find((j) => j.id === one[1]);
  return job ? json(200, job) : undefined;
}

/** Calls made to one API path. */
export function callsTo(fetchMock: ReturnType<typeof mockFetch>, path: string) {
  return fetchMock.mock.calls.filter(([input]) => String(input).includes(`/api/${path}`));
}

/** A streamed chat reply: `token` events then `done` (spec: CHAT_STREAM_EVENTS). */
export function sse(events: { event: string; data: unknown }[]): Response {
  const text = events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Two chunks, split mid-event, as a network would.
      const half = Math.floor(bytes.length / 2);
      controller.enqueue(bytes.slice(0, half));
      controller.enqueue(bytes.slice(half));
      controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream' },
  });
}

export function signIn(firstName = 'Ada') {
  session.signIn({ access_token: 'access-1', refresh_token: 'refresh-1', first_name: firstName });
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/** Renders with every provider, a memory router at `route`, and a probe showing the location. */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', path }: { route?: string; path?: string } = {},
) {
  const queryClient = createQueryClient();
  const utils = render(
    // jsdom has no layout: tell the virtualised list how big things are so it renders its rows.
    <VirtuosoMockContext.Provider value={{ viewportHeight: 100_000, itemHeight: 50 }}>
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          {path ? (
            <Routes>
              <Route path={path} element={ui} />
              <Route path="*" element={null} />
            </Routes>
          ) : (
            ui
          )}
          <LocationProbe />
        </MemoryRouter>
      </AppProviders>
    </VirtuosoMockContext.Provider>,
  );
  return { ...utils, queryClient };
}

export interface FakeXhrRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}
/** An answer of the fake XHR: a status and a body, or `'network'` for a request that errors. */
export type FakeXhrAnswer = { status: number; body?: unknown; progress?: number[] } | 'network';

/**
 * Stubs XMLHttpRequest (the upload's transport: fetch cannot report upload progress). `answer`
 * decides each request's outcome; returns the requests sent, in order.
 */
export function mockXhr(answer: (req: FakeXhrRequest) => FakeXhrAnswer) {
  const requests: FakeXhrRequest[] = [];
  class FakeXhr {
    upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    status = 0;
    responseText = '';
    private req: FakeXhrRequest = { method: '', url: '', headers: {}, body: undefined };
    open(method: string, url: string) {
      this.req = { ...this.req, method, url };
    }
    setRequestHeader(name: string, value: string) {
      this.req.headers[name] = value;
    }
    send(body: unknown) {
      this.req.body = body;
      requests.push(this.req);
      const result = answer(this.req);
      setTimeout(() => {
        if (result === 'network') {
          this.onerror?.();
          return;
        }
        for (const percent of result.progress ?? []) {
          this.upload.onprogress?.({
            lengthComputable: true,
            loaded: percent,
            total: 100,
          } as ProgressEvent);
        }
        this.status = result.status;
        this.responseText =
          typeof result.body === 'string' ? result.body : JSON.stringify(result.body ?? null);
        this.onload?.();
      }, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return requests;
}

interface FakeUtterance {
  text: string;
  onend: (() => void) | null;
  onerror: (() => void) | null;
}

/**
 * A page-wide speech queue like the browser's: one utterance at a time; cancel() stops it and
 * fires its `end` event later (asynchronously, as browsers do).
 */
export function fakeSpeechSynthesis() {
  const synth = {
    current: null as FakeUtterance | null,
    spoken: [] as string[],
    speak: vi.fn((u: FakeUtterance) => {
      synth.current = u;
      synth.spoken.push(u.text);
    }),
    cancel: vi.fn(() => {
      const stopped = synth.current;
      synth.current = null;
      if (stopped) setTimeout(() => stopped.onend?.(), 0);
    }),
    /** The utterance reaches its end by itself. */
    finish() {
      const done = synth.current;
      synth.current = null;
      done?.onend?.();
    },
  };
  vi.stubGlobal('speechSynthesis', synth);
  vi.stubGlobal(
    'SpeechSynthesisUtterance',
    class {
      onend = null;
      onerror = null;
      constructor(readonly text: string) {}
    },
  );
  return synth;
}
