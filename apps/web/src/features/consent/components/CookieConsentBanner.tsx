import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useClientConfig } from '../../../lib/config';
import { withBase } from '../../../lib/base-path';
import { useRegion } from '../api/get-region';
import { loadAnalytics, readConsent, writeConsent, type ConsentValue } from '../consent';

/**
 * Cookie consent: shown once the region lookup found the visitor's country and while no consent
 * cookie exists.
 * The analytics script (URL from the server config) loads only after consent.
 */
export function CookieConsentBanner() {
  const [consent, setConsent] = useState<ConsentValue | undefined>(readConsent);
  const config = useClientConfig();
  const region = useRegion(consent === undefined);
  const analyticsUrl = config.data?.analyticsScriptUrl;

  useEffect(() => {
    if (consent === 'true') loadAnalytics(analyticsUrl);
  }, [consent, analyticsUrl]);

  if (consent !== undefined || !region.data?.country) return null;

  const decide = (value: ConsentValue) => {
    writeConsent(value);
    setConsent(value);
  };
  return (
    <Paper
      role="region"
      aria-label="Cookie consent"
      elevation={8}
      square
      sx={{
        position: 'fixed',
        left: 0,
        right: 0,
        bottom: 0,
        zIndex: (t) => t.zIndex.snackbar,
        p: 2,
      }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' }, maxWidth: 1000, mx: 'auto' }}
      >
        <Typography variant="body2" sx={{ flexGrow: 1 }}>
          We use cookies to understand how Inkwell is used and to improve it. See our{' '}
          <Link href={withBase('privacy.html')} target="_blank" rel="noopener noreferrer">
            Privacy Policy
          </Link>
          .
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" onClick={() => decide('false')}>
            Decline
          </Button>
          <Button variant="contained" onClick={() => decide('true')}>
            Accept
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
