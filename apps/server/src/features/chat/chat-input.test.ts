import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendPartialRequest } from '../../../test/partial-request';
import { readChatText } from './chat-input';

/**
 * A chat form whose client goes away mid-body: reading it must fail, not wait forever (each such
 * request would otherwise keep its handler, its request and its parser for the process's life).
 */
describe('reading a chat form cut short', () => {
  let app: FastifyInstance;
  let url: string;
  let reading = false;
  let outcome: 'pending' | 'read' | 'failed' = 'pending';

  beforeAll(async () => {
    app = Fastify();
    await app.register(multipart);
    app.post('/read', async (request) => {
      reading = true;
      outcome = await readChatText(request).then(
        () => 'read' as const,
        () => 'failed' as const,
      );
      return {};
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('fails once the client has dropped the connection', async () => {
    const boundary = 'chat-boundary';
    const request = await sendPartialRequest({
      url,
      path: '/read',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      declaredLength: 4000,
      sent: Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="text"\r\n\r\nhello, wh`,
      ),
    });
    await expect.poll(() => reading).toBe(true);

    request.socket.destroy();

    await expect.poll(() => outcome).toBe('failed');
  });
});
