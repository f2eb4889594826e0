import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback that keeps every message it receives. With `hold`, it takes each
 * message's data but does not acknowledge it (the sender's send stays pending) until `release()`.
 */
export async function startSmtpTestServer(opts: { hold?: boolean } = {}) {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  let held: (() => void)[] = [];
  let releasing = !opts.hold;
  const heldWaiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (!releasing) {
          held.push(() => acknowledge());
          heldWaiters.splice(0).forEach((w) => w());
          return;
        }
        acknowledge();
      });
      const acknowledge = () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      };
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Resolves with the n-th mail (1-based) once it has arrived. */
    async waitForMail(n = 1, timeoutMs = 5000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`no mail #${n} within ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
      return mails[n - 1]!;
    },
    /** Resolves once a message is being held (its data received, not yet acknowledged). */
    heldMail(): Promise<void> {
      if (held.length > 0) return Promise.resolve();
      return new Promise((resolve) => heldWaiters.push(resolve));
    },
    /** Acknowledges the held messages, and every later one at once. */
    release() {
      releasing = true;
      const pending = held;
      held = [];
      pending.forEach((ack) => ack());
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Decodes a quoted-printable mail body enough to find links in it. */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}
