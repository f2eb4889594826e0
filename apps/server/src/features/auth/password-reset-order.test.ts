import { PASSWORD_RESET_REQUESTED_MESSAGE } from '@inkwell/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, startSmtpTestServer } from '../../../test/smtp-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';

/**
 * A reset request must not tell a known address from an unknown one by its time: the answer goes
 * first, the mail after it. Shown by order, not by a clock: the SMTP server holds the mail
 * (accepts its data, does not acknowledge it) and the answer has already arrived.
 */
describe('password reset: the answer before the mail', () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  beforeAll(async () => {
    smtp = await startSmtpTestServer({ hold: true });
    server = await startTestServer({
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://inkwell.test', AUTH_RATE_LIMIT: '1000' },
    });
  });
  afterAll(async () => {
    smtp.release();
    await server.close();
  });

  const requestReset = (email: string) =>
    server.request('/api/request_password_reset', { method: 'POST', json: { email } });

  it('answers a known address while its mail is still held by the mail server', async () => {
    const user = await registerUser(server);
    const answer = requestReset(user.email).then(async (res) => ({
      status: res.status,
      body: await res.json(),
    }));
    // Whichever comes first: the answer, or the mail reaching the (holding) SMTP server. Before,
    // the answer waited for the mail to be accepted, so the held mail came first.
    const first = await Promise.race([answer, smtp.heldMail().then(() => 'mail held' as const)]);
    expect(first).toEqual({ status: 200, body: { message: PASSWORD_RESET_REQUESTED_MESSAGE } });
    expect(smtp.mails).toHaveLength(0);

    // The mail does go out, after the answer.
    await smtp.heldMail();
    smtp.release();
    const mail = await smtp.waitForMail(1);
    expect(mail.to).toEqual([user.email]);
    expect(decodeQuotedPrintable(mail.raw)).toMatch(
      /http:\/\/inkwell\.test\/reset-password\?token=/,
    );
  });

  it('answers an unknown address the same, and the same when the mail server is gone', async () => {
    const res = await requestReset('nobody-here@example.com');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: PASSWORD_RESET_REQUESTED_MESSAGE });
    // The mail server gone: the known address still gets the same answer.
    await smtp.close(); // the unsent mail is logged (level error), never shown to the visitor
    const user = await registerUser(server);
    const known = await requestReset(user.email);
    expect(known.status).toBe(200);
    expect(await known.json()).toEqual({ message: PASSWORD_RESET_REQUESTED_MESSAGE });
  });
});
