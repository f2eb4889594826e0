import { request } from 'node:http';

/**
 * A request with node:http, resolving with the status at the end of the response; `onData` sees
 * each chunk as it arrives. The benches' client: fetch's web streams cost the client more per
 * chunk than the server spends on a token or a 64 KB piece of an upload, on the same two cores,
 * and that is no part of the product's cost.
 */
export function send(
  url: string,
  opts: { method: string; headers: Record<string, string>; body?: Buffer },
  onData: (chunk: string) => void = () => {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method, headers: opts.headers }, (res) => {
      res.setEncoding('utf8');
      res.on('data', onData);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A form as a browser sends it (multipart/form-data), encoded once so no timing includes it. */
export async function encodeForm(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type')!,
  };
}
