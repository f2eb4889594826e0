import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { HttpError, badRequest } from '../../../lib/http-error';
import { untilAborted } from '../../../lib/linked-signal';
import { type AddressClass, classifyAddress, refusalMessage } from './address-policy';

/**
 * Fetches a page for analysis without letting the caller reach anything but the public internet.
 * Every hop (the first request and each redirect) is checked the same way: http(s) only, the host
 * resolved and every address classified, and the connection pinned to the vetted address through a
 * custom `lookup`, so a second DNS answer cannot swap in an internal address (DNS rebinding).
 */
export interface SafeFetchOptions {
  /** Lower-cased host names (or address literals) exempt from the address check (FETCH_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  /** 'html' refuses anything but HTML; 'any' is for robots.txt. */
  accept: 'html' | 'any';
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Answers a host name's addresses: the system's resolver unless given (tests give theirs). */
  resolve?: HostResolver;
}

interface ResolvedAddress {
  address: string;
  family: number;
}
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;
const systemResolver: HostResolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface FetchedResource {
  /** Final address after redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** Header names and values as sent, e.g. for repeated X-Robots-Tag lines. */
  rawHeaders: string[];
  contentType: string;
  body: Buffer;
  /** Addresses visited before the final one. */
  redirects: string[];
}

/**
 * The address answered, but not with an HTML page (with `accept: 'html'`): a 400 for whoever
 * asked for that page, and what it answered (its status, after redirects) for a crawl to count.
 */
export class NotHtmlError extends HttpError {
  constructor(
    message: string,
    readonly url: string,
    readonly status: number,
  ) {
    super(400, message);
  }
}

export const FETCH_TIMEOUT_MS = 10_000;
export const FETCH_MAX_BYTES = 5 * 1024 * 1024;
export const FETCH_MAX_REDIRECTS = 5;
const HTML_TYPES = ['text/html', 'application/xhtml+xml'];
const USER_AGENT = 'InkwellPageAnalysis/1.0 (+accessibility and SEO audit)';

export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<FetchedResource> {
  const timeoutMs = opts.timeoutMs ?? FETCH_TIMEOUT_MS;
  // One deadline for the whole chain of redirects, not one per hop.
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const maxRedirects = opts.maxRedirects ?? FETCH_MAX_REDIRECTS;
  const redirects: string[] = [];
  let url = parseTarget(rawUrl);
  try {
    for (;;) {
      const address = await vetHost(url, opts.allowHosts, opts.resolve, signal);
      const res = await request(url, address, signal);
      const location = res.headers.location;
      if (res.statusCode && [301, 302, 303, 307, 308].includes(res.statusCode) && location) {
        res.destroy();
        if (redirects.length >= maxRedirects) {
          throw badRequest(`Refused to fetch the page: more than ${maxRedirects} redirects.`);
        }
        redirects.push(url.href);
        url = parseTarget(location, url);
        continue;
      }
      const contentType = String(res.headers['content-type'] ?? '');
      if (opts.accept === 'html' && !isHtml(contentType)) {
        res.destroy();
        throw new NotHtmlError(
          `The address did not answer with an HTML page (content type: ${contentType || 'none'}).`,
          url.href,
          res.statusCode ?? 0,
        );
      }
      const body = await readCapped(res, opts.maxBytes ?? FETCH_MAX_BYTES);
      return {
        url: url.href,
        status: res.statusCode ?? 0,
        headers: res.headers,
        rawHeaders: res.rawHeaders,
        contentType,
        body,
        redirects,
      };
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (timeout.aborted) {
      throw new HttpError(504, `The page did not answer within ${timeoutMs / 1000} seconds.`);
    }
    if (opts.signal?.aborted) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new HttpError(502, `Could not fetch the page at ${url.host} (${code}).`);
  }
}

/** Parses and checks the scheme; relative addresses are resolved against the previous hop. */
export function parseTarget(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = base ? new URL(raw, base) : new URL(raw);
  } catch {
    throw badRequest(
      base
        ? `Refused to follow an invalid redirect: ${raw}`
        : 'Enter a full web address, e.g. https://example.com/',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest(
      `Refused to fetch ${url.protocol} addresses: only http and https are supported.`,
    );
  }
  if (url.username || url.password) {
    throw badRequest('Refused to fetch an address containing a user name or password.');
  }
  url.hash = '';
  return url;
}

/**
 * Refused even for FETCH_ALLOW_HOSTS (an operator's own sites, on loopback or the private
 * network): metadata endpoints hand out cloud credentials, the rest of link-local holds more of
 * them, and an IPv4 address in IPv6 clothing (mapped, NAT64, 6to4...) could be any of those.
 */
const REFUSED_EVEN_ALLOWED = new Set<AddressClass>([
  'metadata',
  'link-local',
  'ipv4-mapped',
  'reserved',
]);

interface VettedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves the host and checks every address it has; returns the one to connect to. */
export async function vetHost(
  url: URL,
  allowHosts: readonly string[],
  resolve: HostResolver = systemResolver,
  signal?: AbortSignal,
): Promise<VettedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      // Within the fetch's deadline: a name server that never answers (one the page's owner
      // runs, say) held the request, and a thread of libuv's pool, with it.
      addresses = await (signal ? untilAborted(resolve(host), signal) : resolve(host));
    } catch {
      signal?.throwIfAborted();
      throw badRequest(`Could not resolve the host name ${host}.`);
    }
    if (addresses.length === 0) throw badRequest(`Could not resolve the host name ${host}.`);
  }
  const allowed = allowHosts.includes(host);
  // All of them, not just the first: the connection could otherwise fall back to a refused one.
  for (const { address } of addresses) {
    const cls = classifyAddress(address);
    if (cls && (!allowed || REFUSED_EVEN_ALLOWED.has(cls)))
      throw badRequest(refusalMessage(host, address, cls));
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

function request(url: URL, pinned: VettedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  // The socket connects to the vetted address whatever the resolver would say now; TLS still
  // verifies the certificate against the host name (servername defaults to url.hostname).
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(
        null,
        [{ address: pinned.address, family: pinned.family }],
      );
    } else callback(null, pinned.address, pinned.family);
  };
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, {
      method: 'GET',
      agent: false, // a fresh socket per hop: a pooled one could belong to another host's vetting
      lookup,
      signal,
      headers: {
        'user-agent': USER_AGENT,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
        'accept-encoding': 'identity',
      },
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

function isHtml(contentType: string): boolean {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  return HTML_TYPES.includes(mime);
}

async function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    badRequest(
      `Refused to analyse the page: it is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`,
    );
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      res.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
