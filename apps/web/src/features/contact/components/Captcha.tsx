import CircularProgress from '@mui/material/CircularProgress';
import { useClientConfig } from '../../../lib/config';
import { AltchaCaptcha } from './AltchaCaptcha';
import { RecaptchaCaptcha } from './RecaptchaCaptcha';

/** The captcha the server asks for: ALTCHA (self-hosted, default) or reCAPTCHA. */
export function Captcha({ onToken }: { onToken: (token: string) => void }) {
  const { data, isPending } = useClientConfig();
  if (isPending) return <CircularProgress size={24} aria-label="Loading captcha" />;
  if (data?.captcha === 'recaptcha' && data.recaptchaSiteKey) {
    return <RecaptchaCaptcha siteKey={data.recaptchaSiteKey} onToken={onToken} />;
  }
  return <AltchaCaptcha onToken={onToken} />;
}
