import type { Config } from '../config';

/**
 * Content Security Policy of the web app: no inline script. Styles allow inline because MUI (Emotion)
 * injects style elements. reCAPTCHA and the analytics script are allowed only when configured; the
 * analytics script's origin may also receive its beacons (connect-src) and tracking pixels (img-src).
 */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const scriptSrc = ["'self'"];
  const frameSrc = ["'self'"];
  const imgSrc = ["'self'", 'data:', 'blob:'];
  const connectSrc = ["'self'"];
  if (config.CAPTCHA === 'recaptcha') {
    scriptSrc.push('https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/');
    frameSrc.push('https://www.google.com/recaptcha/');
  }
  if (config.ANALYTICS_SCRIPT_URL) {
    const analytics = new URL(config.ANALYTICS_SCRIPT_URL).origin;
    scriptSrc.push(analytics);
    connectSrc.push(analytics);
    imgSrc.push(analytics);
  }
  return {
    defaultSrc: ["'self'"],
    scriptSrc,
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc,
    fontSrc: ["'self'", 'data:'],
    connectSrc,
    workerSrc: ["'self'", 'blob:'],
    frameSrc,
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'self'"],
  };
}
