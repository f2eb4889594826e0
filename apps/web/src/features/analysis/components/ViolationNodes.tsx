import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { AccessibilityViolation } from '@inkwell/contract';

const codeSx = {
  fontFamily: 'monospace',
  fontSize: '0.8125rem',
  overflowWrap: 'anywhere',
  whiteSpace: 'pre-wrap',
} as const;

/** Where a violation is, as Lighthouse shows it: each element's selector and its HTML. */
export function ViolationNodes({ violation }: { violation: AccessibilityViolation }) {
  const nodes =
    violation.nodes ?? violation.examples.map((selector) => ({ selector, snippet: '' }));
  if (nodes.length === 0) return null;
  return (
    <Box component="ul" aria-label={`Elements failing ${violation.id}`} sx={{ pl: 2, my: 0.5 }}>
      {nodes.map((n, i) => (
        <li key={`${n.selector}-${i}`}>
          <Typography variant="body2" component="code" sx={{ ...codeSx, fontWeight: 700 }}>
            {n.selector}
          </Typography>
          {n.snippet && (
            <Typography
              variant="body2"
              component="code"
              sx={{ ...codeSx, display: 'block', color: 'text.secondary' }}
            >
              {n.snippet}
            </Typography>
          )}
        </li>
      ))}
      {violation.count > nodes.length && (
        <li>
          <Typography variant="body2">{`and ${violation.count - nodes.length} more`}</Typography>
        </li>
      )}
    </Box>
  );
}
