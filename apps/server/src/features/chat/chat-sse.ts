import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { CHAT_STREAM_EVENTS } from '@inkwell/contract';

/**
 * A server-sent-events response. The events go through a stream that Fastify sends, so Fastify
 * keeps owning the response (hooks, headers, closing on disconnect); the format is in the contract.
 */
export class SseWriter {
  private readonly stream = new PassThrough();

  open(reply: FastifyReply) {
    reply
      .code(200)
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-transform')
      // Tells nginx-like proxies not to buffer the stream.
      .header('x-accel-buffering', 'no')
      .send(this.stream);
  }

  /** Writes one event; waits when the client reads slower than the model writes. */
  async send(event: keyof typeof CHAT_STREAM_EVENTS, data: unknown): Promise<void> {
    const s = this.stream;
    if (s.destroyed || s.writableEnded) return;
    if (!s.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)) {
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

  end() {
    if (!this.stream.writableEnded) this.stream.end();
  }
}
