import { useEffect, useRef } from 'react';

interface Grecaptcha {
  ready(cb: () => void): void;
  render(
    el: HTMLElement,
    opts: { sitekey: string; callback: (t: string) => void; 'expired-callback': () => void },
  ): number;
}
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<Grecaptcha> | null = null;
function loadRecaptcha(): Promise<Grecaptcha> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'https://www.google.com/recaptcha/api.js?render=explicit';
    script.async = true;
    script.onload = () => window.grecaptcha?.ready(() => resolve(window.grecaptcha as Grecaptcha));
    script.onerror = () => {
      loading = null;
      reject(new Error('reCAPTCHA failed to load'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Google reCAPTCHA v2, used only when the server is configured for it. */
export function RecaptchaCaptcha({
  siteKey,
  onToken,
}: {
  siteKey: string;
  onToken: (t: string) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  });
  useEffect(() => {
    let alive = true;
    loadRecaptcha()
      .then((g) => {
        if (!alive || !ref.current || ref.current.childElementCount) return;
        g.render(ref.current, {
          sitekey: siteKey,
          callback: (t) => onTokenRef.current(t),
          'expired-callback': () => onTokenRef.current(''),
        });
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [siteKey]);
  return <div ref={ref} />;
}
