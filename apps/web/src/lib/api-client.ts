import type { RefreshResponse } from '@inkwell/contract';
import { getBasePath } from './base-path';
import { API_MESSAGES, messageForStatus } from './api-messages';
import { session } from './session';

/**
 * The one HTTP client of the web app. It adds the bearer token, refreshes it once on a 401 and
 * retries once, turns failures into `ApiError` (spec §8 texts) and reports them to /api/logs.
 * It has no UI side effects: screens decide what to show.
 */

/** Failure of a request. `message` is the general text of spec §8; `serverMessage` the server's `{error}`. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or null when no response arrived. */
    readonly status: number | null,
    readonly serverMessage?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Parser<T> {
  parse(data: unknown): T;
}

export interface ApiRequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData / URLSearchParams / Blob are sent as they are. */
  body?: unknown;
  /** Send the bearer access token and refresh on 401 (default true). */
  auth?: boolean;
  /** Send cookies too (`credentials: 'include'`), for the chat calls of spec §6. */
  withCredentials?: boolean;
  /** How to read a successful answer (default 'json'; an empty body gives undefined). */
  responseType?: 'json' | 'blob' | 'text' | 'response';
  /** Validates a JSON answer (a contract schema). */
  schema?: Parser<T>;
  /** Report failures to /api/logs (default true). */
  log?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export function apiUrl(path: string): string {
  return `${getBasePath()}api/${path.replace(/^\/?(api\/)?/, '')}`;
}

export async function apiRequest<T = unknown>(
  path: string,
  options: ApiRequestOptions<T> = {},
): Promise<T> {
  const { auth = true, log = true } = options;
  try {
    const sentWith = session.getAccessToken();
    let response = await send(path, options);
    if (response.status === 401 && auth) {
      // A refresh that ended while this request was out already replaced its token: retry with
      // the new one. Refreshing again would rotate the refresh token for nothing.
      const current = session.getAccessToken();
      let refreshed = Boolean(sentWith && current && current !== sentWith);
      if (!refreshed) {
        try {
          await refreshAccessToken();
          refreshed = true;
        } catch (err) {
          if (log) reportError(`Token refresh failed: ${(err as Error).message}`);
        }
      }
      if (refreshed) response = await send(path, options);
    }
    if (!response.ok) throw await toApiError(response);
    return await readBody(response, options);
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const error = err instanceof ApiError ? err : new ApiError(API_MESSAGES.network, null);
    if (log) {
      reportError(
        `${options.method ?? 'GET'} ${path} failed: ${error.status ?? 'no response'} ${error.serverMessage ?? error.message}`,
      );
    }
    throw error;
  }
}

async function send<T>(path: string, options: ApiRequestOptions<T>): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    if (
      options.body instanceof FormData ||
      options.body instanceof URLSearchParams ||
      options.body instanceof Blob ||
      typeof options.body === 'string'
    ) {
      body = options.body;
    } else {
      body = JSON.stringify(options.body);
      headers['Content-Type'] = 'application/json';
    }
  }
  const token = options.auth === false ? null : session.getAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(apiUrl(path), {
    method: options.method ?? 'GET',
    headers,
    body,
    credentials: options.withCredentials ? 'include' : 'same-origin',
    signal: options.signal,
  });
}

async function toApiError(response: Response): Promise<ApiError> {
  let serverMessage: string | undefined;
  try {
    const data: unknown = await response.json();
    if (data && typeof data === 'object' && 'error' in data && typeof data.error === 'string') {
      serverMessage = data.error;
    }
  } catch {
    // Not JSON: the general message is enough.
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    messageForStatus(response.status, Number.isFinite(retryAfter) ? retryAfter : undefined),
    response.status,
    serverMessage,
  );
}

async function readBody<T>(response: Response, options: ApiRequestOptions<T>): Promise<T> {
  switch (options.responseType) {
    case 'response':
      return response as T;
    case 'blob':
      return (await response.blob()) as T;
    case 'text':
      return (await response.text()) as T;
    default: {
      const text = await response.text();
      try {
        const data: unknown = text ? JSON.parse(text) : undefined;
        return options.schema ? options.schema.parse(data) : (data as T);
      } catch {
        throw new ApiError(API_MESSAGES.other, response.status, 'Unexpected response from server');
      }
    }
  }
}

let refreshing: Promise<string> | null = null;

/**
 * POST /api/token/refresh with the refresh token. Refresh tokens rotate, so concurrent 401s share
 * one refresh instead of racing each other with the same (soon invalid) token.
 */
export function refreshAccessToken(): Promise<string> {
  refreshing ??= doRefresh().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function doRefresh(): Promise<string> {
  const refreshToken = session.getRefreshToken();
  if (!refreshToken) throw new Error(API_MESSAGES.noRefreshToken);
  const response = await fetch(apiUrl('token/refresh'), {
    method: 'POST',
    headers: { Authorization: `Bearer ${refreshToken}` },
  });
  if (response.status === 401) {
    // The refresh token is dead: the session is over. A disabled account is told why.
    const reason = (await toApiError(response)).serverMessage;
    if (reason && /disabled/i.test(reason)) session.endWithReason(reason);
    else session.clear();
    throw new Error(reason ?? API_MESSAGES.other);
  }
  if (!response.ok) throw await toApiError(response);
  // Checked by hand rather than with the contract's zod schema: this runs in the first chunk.
  const data = (await response.json().catch(() => ({}))) as Partial<RefreshResponse> | null;
  const accessToken = typeof data?.access_token === 'string' ? data.access_token : '';
  if (!accessToken) throw new Error(API_MESSAGES.noAccessToken);
  session.setTokens(
    accessToken,
    typeof data?.refresh_token === 'string' ? data.refresh_token : undefined,
  );
  return accessToken;
}

/** POST /api/logs; failures are ignored (spec §7). */
export function reportError(message: string, level: 'ERROR' | 'WARN' | 'INFO' = 'ERROR') {
  try {
    void fetch(apiUrl('logs'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: `${new Date().toISOString()} [${level}] ${message}`, level }),
    }).catch(() => undefined);
  } catch {
    // Logging must never break the app.
  }
}
