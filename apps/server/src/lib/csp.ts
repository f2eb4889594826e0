import type { Config } from '../config';

/**
 * Content Security Policy of the web app: no inline script. Styles allow inline because MUI (Emotion)
 * injects style elements. reCAPTCHA and the analytics script are allowed only when configured.
 */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const scriptSrc = ["'self'"];
  const frameSrc = ["'self'"];
  if (config.CAPTCHA === 'recaptcha') {
    scriptSrc.push('https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/');
    frameSrc.push('https://www.google.com/recaptcha/');
  }
  if (config.ANALYTICS_SCRIPT_URL) scriptSrc.push(new URL(config.ANALYTICS_SCRIPT_URL).origin);
  return {
    defaultSrc: ["'self'"],
    scriptSrc,
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    frameSrc,
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'self'"],
  };
}
