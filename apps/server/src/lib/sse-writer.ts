import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A server-sent-events response. The events go through a stream that Fastify sends, so Fastify
 * keeps owning the response (hooks, headers, closing on disconnect); the events of each stream are in the contract (chat.ts, ai.ts).
 *
 * Events are written on the next turn of the event loop (setImmediate), together when several
 * came in one turn: a token arrives while the model waits for the main thread, and the socket
 * write (a syscall and the TCP stack, ~50 µs) then runs while the model computes the next token,
 * instead of before it.
 */
export class SseWriter {
  private readonly stream = new PassThrough();
  private pending = '';
  private flushScheduled = false;

  open(reply: FastifyReply) {
    reply
      .code(200)
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store, no-transform')
      // Tells nginx-like proxies not to buffer the stream.
      .header('x-accel-buffering', 'no')
      .send(this.stream);
  }

  /** Queues one event; waits when the client reads slower than the model writes. */
  async send(event: string, data: unknown): Promise<void> {
    const s = this.stream;
    if (s.destroyed || s.writableEnded) return;
    this.pending += `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    if (s.writableNeedDrain) {
      await new Promise<void>((resolve) => {
        const done = () => {
          s.off('drain', done);
          s.off('close', done);
          resolve();
        };
        s.on('drain', done);
        s.on('close', done);
      });
    }
  }

  /** Writes what is queued, then ends the response. */
  end() {
    this.flush();
    if (!this.stream.writableEnded) this.stream.end();
  }

  private flush() {
    this.flushScheduled = false;
    const chunk = this.pending;
    this.pending = '';
    if (chunk && !this.stream.destroyed && !this.stream.writableEnded) this.stream.write(chunk);
  }
}

/** True when the client asked for server-sent events. */
export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}
