import { request } from 'node:http';

/** A multipart/form-data body with one `file` field, encoded once so a timing excludes it. */
export function multipartFile(name: string, bytes: Buffer) {
  const boundary = `----inkwell-bench-${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([head, bytes, tail]),
  };
}

/** POSTs a body with node:http (a lean client: no per-chunk stream machinery) and reads the answer. */
export function postRaw(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
