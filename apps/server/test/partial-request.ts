import { connect, type Socket } from 'node:net';

/**
 * A request that never finishes, over a raw socket (fetch cannot stop in the middle of a body):
 * the headers announce a body of `declaredLength` bytes, only `sent` of them are written. The test
 * then drops the socket (a client that went away) or leaves it (a client that stalled).
 */
export interface PartialRequest {
  socket: Socket;
  /** True once the socket is closed, by either side. */
  readonly closed: boolean;
  /** Everything the server answered so far. */
  readonly answer: string;
}

export async function sendPartialRequest(opts: {
  url: string;
  path: string;
  headers: Record<string, string>;
  declaredLength: number;
  sent: Buffer;
}): Promise<PartialRequest> {
  const { hostname, port } = new URL(opts.url);
  const socket = connect({ host: hostname, port: Number(port) });
  let closed = false;
  let answer = '';
  socket.on('close', () => (closed = true));
  socket.on('error', () => {}); // a reset by the server is one of the outcomes under test
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const head = [
    `POST ${opts.path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    `content-length: ${opts.declaredLength}`,
    ...Object.entries(opts.headers).map(([k, v]) => `${k}: ${v}`),
  ].join('\r\n');
  socket.write(`${head}\r\n\r\n`);
  socket.write(opts.sent);
  return {
    socket,
    get closed() {
      return closed;
    },
    get answer() {
      return answer;
    },
  };
}

/** The start of a multipart form whose one file part (`file`, named `filename`) is cut short. */
export function partialFileForm(filename: string, sent: Buffer, fileLength: number) {
  const boundary = 'partial-request-boundary';
  const start = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\n` +
      'content-type: application/octet-stream\r\n\r\n',
  );
  const end = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    /** What the whole form would weigh, had the file been sent in full. */
    declaredLength: start.length + fileLength + end.length,
    sent: Buffer.concat([start, sent]),
  };
}
