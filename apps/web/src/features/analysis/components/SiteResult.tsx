import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { SiteAnalysis, SiteBrokenLink } from '@inkwell/contract';

const score = (value: number | null) => (value === null ? 'not audited' : `${value}/100`);

/** "200 ×1, 404 ×6": how the addresses fetched answered. */
const statuses = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([status, n]) => `${status === 'no answer' ? 'no answer' : `HTTP ${status}`} ×${n}`)
    .join(', ');

/**
 * The site summary: what the crawl fetched and how each address answered, the broken links with
 * the pages that link to them, scores per audited page (those that answered with HTML), then each
 * issue once with the pages that have it.
 */
export function SiteResult({ analysis }: { analysis: SiteAnalysis }) {
  const fetched = analysis.fetched ?? [];
  const broken = analysis.broken_links ?? [];
  return (
    <Box sx={{ mt: 1 }}>
      {analysis.status_counts && (
        <Typography variant="body2" component="p">
          {`Addresses fetched (${fetched.length})${fetched.length ? `: ${statuses(analysis.status_counts)}` : ''}`}
        </Typography>
      )}
      {broken.length > 0 && <BrokenLinks links={broken} />}
      {analysis.pages.length > 0 && <AuditedPages analysis={analysis} />}
      {analysis.disallowed.length > 0 && (
        <Typography variant="body2" component="p" sx={{ mt: 1 }}>
          {`Not crawled (robots.txt): ${analysis.disallowed.length} address(es).`}
        </Typography>
      )}
    </Box>
  );
}

/** Links that answered 4xx/5xx, each with the pages that lead to it. */
function BrokenLinks({ links }: { links: SiteBrokenLink[] }) {
  return (
    <>
      <Typography variant="subtitle2" component="p" sx={{ mt: 1 }}>
        {`Broken links (${links.length})`}
      </Typography>
      <Box component="ul" aria-label="Broken links" sx={{ pl: 2.5, my: 0.5 }}>
        {links.map((l) => (
          <li key={l.url}>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {`${l.url}: HTTP ${l.status}`}
            </Typography>
            <Typography
              variant="body2"
              component="p"
              sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}
            >
              {`Linked from ${l.linked_from.join(', ')}`}
            </Typography>
          </li>
        ))}
      </Box>
    </>
  );
}

/** Scores per audited page (those that answered with HTML), then each issue once. */
function AuditedPages({ analysis }: { analysis: SiteAnalysis }) {
  return (
    <>
      <Typography variant="subtitle2" component="p" sx={{ mt: 1 }}>
        {`Pages audited (${analysis.pages.length}): the pages that answered with HTML`}
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
    </>
  );
}
