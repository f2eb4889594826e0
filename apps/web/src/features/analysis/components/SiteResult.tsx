import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { SiteAnalysis } from '@inkwell/contract';

const score = (value: number | null) => (value === null ? 'not audited' : `${value}/100`);

/** The site summary: scores per page, then each issue once with the pages that have it. */
export function SiteResult({ analysis }: { analysis: SiteAnalysis }) {
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="subtitle2" component="p">
        {`Pages audited (${analysis.pages.length})`}
      </Typography>
      <Box component="ul" aria-label="Scores per page" sx={{ pl: 2.5, my: 0.5 }}>
        {analysis.pages.map((p) => (
          <li key={p.url}>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {`${p.url}: accessibility ${score(p.accessibility_score)}, SEO ${score(p.seo_score)}`}
              {p.error ? ` (${p.error})` : ''}
            </Typography>
          </li>
        ))}
      </Box>
      <Typography variant="subtitle2" component="p" sx={{ mt: 1 }}>
        {`Issues (${analysis.issues.length})`}
      </Typography>
      {analysis.issues.length === 0 ? (
        <Typography variant="body2">No issues found by the automated audits.</Typography>
      ) : (
        <Box component="ul" aria-label="Issues across pages" sx={{ pl: 2.5, my: 0.5 }}>
          {analysis.issues.map((i) => (
            <li key={`${i.audit}:${i.id}`}>
              <Typography variant="body2">
                {`${i.audit === 'seo' ? 'SEO' : 'Accessibility'} · ${i.id}: ${i.description} on ` +
                  `${i.pages_affected} of ${analysis.pages.length} ${analysis.pages.length === 1 ? 'page' : 'pages'}`}
              </Typography>
              <Typography
                variant="body2"
                component="p"
                sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}
              >
                {i.pages.join(', ')}
              </Typography>
            </li>
          ))}
        </Box>
      )}
      {analysis.disallowed.length > 0 && (
        <Typography variant="body2" component="p" sx={{ mt: 1 }}>
          {`Not crawled (robots.txt): ${analysis.disallowed.length} address(es).`}
        </Typography>
      )}
    </Box>
  );
}
