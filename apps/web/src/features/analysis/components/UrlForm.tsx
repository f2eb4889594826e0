import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import type { UrlAnalysisKind } from '../analysis-messages';

const SelectUrlActionDialog = lazy(() =>
  import('./SelectUrlActionDialog').then((m) => ({ default: m.SelectUrlActionDialog })),
);

/** A web address, with https:// added when no scheme was typed; null when it is not one. */
export function normalizeUrl(raw: string): string | null {
  const value = raw.trim();
  // Spaces are never part of an address; "not a url" must not become https://not%20a%20url/.
  if (!value || /\s/.test(value)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(withScheme);
    const webScheme = url.protocol === 'http:' || url.protocol === 'https:';
    // A host name with a dot (example.com), an IP address, or localhost.
    const plausibleHost =
      url.hostname.includes('.') || url.hostname === 'localhost' || url.hostname.startsWith('[');
    return webScheme && plausibleHost ? url.href : null;
  } catch {
    return null;
  }
}

/** URL mode of the input bar: the address, 'Analyze' ('Select Action for URL') and 'Return'. */
export function UrlForm({ onReturn }: { onReturn: () => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const [url, setUrl] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  // Entering URL mode moves the focus to the address (keyboard users land where they type).
  useEffect(() => field.current?.focus(), []);

  function submit() {
    const normalized = normalizeUrl(value);
    if (!normalized) setError('Enter a valid web address, e.g. https://example.com');
    else setUrl(normalized);
  }

  function run(kind: UrlAnalysisKind, target: string) {
    setUrl(null);
    setValue('');
    onReturn();
    // The site analysis (auth, a job with progress) and the page analyses load apart.
    if (kind === 'site') void import('../run-site-analysis').then((m) => m.runSiteAnalysis(target));
    else void import('../run-url-analysis').then((m) => m.runUrlAnalysis(kind, target));
  }

  return (
    <Paper variant="outlined" sx={{ p: 1 }}>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
      >
        <TextField
          id="analysis-url"
          label="Web page address"
          type="url"
          size="small"
          inputRef={field}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setError('');
          }}
          error={Boolean(error)}
          helperText={error || ' '}
          sx={{ flexGrow: 1, minWidth: 200 }}
        />
        <Button type="submit" variant="contained">
          Analyze
        </Button>
        <Button onClick={onReturn}>Return</Button>
      </Box>
      {url && (
        <Suspense fallback={null}>
          <SelectUrlActionDialog
            url={url}
            onClose={() => setUrl(null)}
            onSelect={(k) => run(k, url)}
          />
        </Suspense>
      )}
    </Paper>
  );
}
