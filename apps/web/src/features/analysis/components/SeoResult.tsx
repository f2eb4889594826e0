import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { SeoAnalysis } from '@inkwell/contract';

/** Score, then failed audits first and passed audits after. */
export function SeoResult({ analysis }: { analysis: SeoAnalysis }) {
  const failed = analysis.audits.filter((a) => !a.passed);
  const passed = analysis.audits.filter((a) => a.passed);
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="subtitle2" component="p">
        {`SEO score ${analysis.score}/100 · ${failed.length} failed · ${passed.length} passed`}
      </Typography>
      {[
        { title: 'Failed', audits: failed },
        { title: 'Passed', audits: passed },
      ].map(
        (g) =>
          g.audits.length > 0 && (
            <Box key={g.title} sx={{ mt: 1 }}>
              <Typography variant="body2" component="p" sx={{ fontWeight: 700 }}>
                {`${g.title} (${g.audits.length})`}
              </Typography>
              <Box component="ul" sx={{ pl: 2.5, my: 0.5 }}>
                {g.audits.map((a) => (
                  <li key={a.id}>
                    <Typography variant="body2">
                      {a.title}
                      {a.details ? `: ${a.details}` : ''}
                    </Typography>
                  </li>
                ))}
              </Box>
            </Box>
          ),
      )}
    </Box>
  );
}
