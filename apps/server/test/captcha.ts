import { solveChallenge } from 'altcha-lib';
import type { TestServer } from './test-app';

/** Solves the server's ALTCHA challenge the way the browser widget does. */
export async function solveCaptcha(server: TestServer): Promise<string> {
  const challenge = await (await server.request('/api/captcha/challenge')).json();
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  if (!solution) throw new Error('captcha not solved');
  const payload = { ...challenge, number: solution.number };
  delete payload.maxnumber;
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}
