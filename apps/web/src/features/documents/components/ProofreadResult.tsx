import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ProofreadResponse } from '@inkwell/contract';
import { highlightCorrections } from './highlight-corrections';

const MAX_LISTED = 50;

/** The corrected text with every correction highlighted, then the list of issues. */
export function ProofreadResult({ result }: { result: ProofreadResponse }) {
  const segments = highlightCorrections(result.corrected_text, result.issues);
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="subtitle2" component="p">
        {`Corrected text (${result.issues.length} ${result.issues.length === 1 ? 'issue' : 'issues'}${result.truncated ? ', beginning of the document only' : ''})`}
      </Typography>
      <Box
        sx={{
          whiteSpace: 'pre-wrap',
          maxHeight: 320,
          overflowY: 'auto',
          p: 1,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
        }}
        tabIndex={0}
        role="region"
        aria-label="Corrected text"
      >
        {segments.map((s, i) =>
          s.issue ? (
            <Box
              component="mark"
              key={i}
              title={s.issue.message}
              sx={{ bgcolor: '#fff3a3', color: '#1a1a1a', borderRadius: 0.5, px: 0.25 }}
            >
              {s.text}
            </Box>
          ) : (
            <span key={i}>{s.text}</span>
          ),
        )}
      </Box>
      {result.issues.length > 0 && (
        <Box component="ul" sx={{ pl: 2.5, my: 1 }}>
          {result.issues.slice(0, MAX_LISTED).map((issue, i) => (
            <li key={i}>
              <Typography variant="body2">
                <strong>{issue.rule}:</strong> {issue.message}
                {issue.suggestions.length > 0 && ` (suggested: ${issue.suggestions.join(', ')})`}
              </Typography>
            </li>
          ))}
        </Box>
      )}
      {result.issues.length > MAX_LISTED && (
        <Typography variant="body2">{`…and ${result.issues.length - MAX_LISTED} more.`}</Typography>
      )}
    </Box>
  );
}
