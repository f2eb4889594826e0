import { CONSENT_COOKIE } from '@inkwell/contract';
import { getCookie, setCookie } from '../../lib/cookies';

export type ConsentValue = 'true' | 'false';

/** The stored decision: 'true' accepted, 'false' declined, undefined not asked yet. */
export function readConsent(): ConsentValue | undefined {
  const v = getCookie(CONSENT_COOKIE.name);
  return v === 'true' || v === 'false' ? v : undefined;
}

export function writeConsent(value: ConsentValue) {
  setCookie(CONSENT_COOKIE.name, value, CONSENT_COOKIE.days);
}

const ANALYTICS_SCRIPT_ID = 'analytics-script';

/** Loads the analytics script once; called only after consent. */
export function loadAnalytics(url: string | undefined) {
  if (!url || document.getElementById(ANALYTICS_SCRIPT_ID)) return;
  const script = document.createElement('script');
  script.id = ANALYTICS_SCRIPT_ID;
  script.src = url;
  script.async = true;
  document.head.appendChild(script);
}
