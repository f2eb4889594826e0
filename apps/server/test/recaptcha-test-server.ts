import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SiteverifyCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}

/**
 * A local stand-in for Google's reCAPTCHA `siteverify` endpoint speaking its protocol: a form
 * POST of `secret`, `response` and `remoteip`, answered with `{ success, "error-codes" }`. Tokens
 * in `validTokens` pass once (Google answers `timeout-or-duplicate` on reuse); `mode` lets a test
 * make the endpoint fail.
 */
export async function startRecaptchaTestServer(opts: { secret: string; validTokens: string[] }) {
  const unused = new Set(opts.validTokens);
  const calls: SiteverifyCall[] = [];
  let mode: 'ok' | 'http-500' | 'not-json' = 'ok';
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/siteverify') {
        res.writeHead(404).end();
        return;
      }
      const form = new URLSearchParams(body);
      const call = {
        secret: form.get('secret'),
        response: form.get('response'),
        remoteip: form.get('remoteip'),
      };
      calls.push(call);
      if (mode === 'http-500') return void res.writeHead(500).end('Internal error');
      if (mode === 'not-json') return void res.writeHead(200).end('<html>maintenance</html>');
      const errors: string[] = [];
      if (call.secret !== opts.secret) errors.push('invalid-input-secret');
      if (!call.response) errors.push('missing-input-response');
      else if (!unused.delete(call.response)) errors.push('timeout-or-duplicate');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          errors.length
            ? { success: false, 'error-codes': errors }
            : { success: true, challenge_ts: new Date().toISOString(), hostname: 'localhost' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    calls,
    fail(how: 'ok' | 'http-500' | 'not-json') {
      mode = how;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
