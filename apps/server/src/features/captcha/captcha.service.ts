import { createHmac } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib';
import type { Payload } from 'altcha-lib/types';
import type { Db } from '../../db/database';
import { nowIso } from '../../lib/time';

const CHALLENGE_TTL_MS = 10 * 60 * 1000;
/** About a second of SHA-256 work in a browser; cheap to verify. */
const MAX_NUMBER = 100_000;

export interface CaptchaDeps {
  db: Db;
  secret: string;
  provider: 'altcha' | 'recaptcha';
  recaptchaSecret?: string;
  recaptchaVerifyUrl: string;
}

/** The HMAC key of ALTCHA challenges, derived so it differs from the JWT key. */
const altchaKey = (secret: string) => createHmac('sha256', secret).update('altcha').digest('hex');

export function newChallenge(deps: CaptchaDeps) {
  return createChallenge({
    hmacKey: altchaKey(deps.secret),
    maxNumber: MAX_NUMBER,
    expires: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
}

/** True when the token proves a solved captcha that was never used before. */
export async function verifyCaptcha(
  deps: CaptchaDeps,
  token: string,
  remoteIp?: string,
): Promise<boolean> {
  if (deps.provider === 'recaptcha') return verifyRecaptcha(deps, token, remoteIp);
  let ok = false;
  try {
    ok = await verifySolution(token, altchaKey(deps.secret), true);
  } catch {
    return false;
  }
  if (!ok) return false;
  const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Payload;
  const expires = extractParams(payload).expires;
  await deps.db.deleteFrom('used_captchas').where('expires_at', '<', nowIso()).execute();
  try {
    await deps.db
      .insertInto('used_captchas')
      .values({
        signature: payload.signature,
        expires_at: expires ? new Date(Number(expires) * 1000).toISOString() : nowIso(),
      })
      .execute();
    return true;
  } catch {
    return false; // the signature is already there: a replay
  }
}

async function verifyRecaptcha(
  deps: CaptchaDeps,
  token: string,
  remoteIp?: string,
): Promise<boolean> {
  const form = new URLSearchParams({ secret: deps.recaptchaSecret ?? '', response: token });
  if (remoteIp) form.set('remoteip', remoteIp);
  try {
    const res = await fetch(deps.recaptchaVerifyUrl, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(5000),
    });
    const json = (await res.json()) as { success?: boolean };
    return json.success === true;
  } catch {
    return false;
  }
}
