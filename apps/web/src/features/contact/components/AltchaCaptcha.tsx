import { useEffect, useRef, useState } from 'react';
import { apiUrl } from '../../../lib/api-client';

/**
 * The self-hosted proof-of-work captcha (ALTCHA web component). Its payload, once verified, is the
 * `recaptchaToken` of the contact form. The component script loads with this (lazy) dialog only.
 */
export function AltchaCaptcha({ onToken }: { onToken: (token: string) => void }) {
  const ref = useRef<HTMLElement>(null);
  const [ready, setReady] = useState(false);
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  });

  useEffect(() => {
    let alive = true;
    void import('altcha').then(() => alive && setReady(true));
    return () => {
      alive = false;
    };
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!ready || !el) return;
    const onState = (e: Event) => {
      const { state, payload } = (e as AltchaStateChangeEvent).detail;
      onTokenRef.current(state === 'verified' && payload ? payload : '');
    };
    el.addEventListener('statechange', onState);
    return () => el.removeEventListener('statechange', onState);
  }, [ready]);

  return <altcha-widget ref={ref} challengeurl={apiUrl('captcha/challenge')} hidelogo />;
}
