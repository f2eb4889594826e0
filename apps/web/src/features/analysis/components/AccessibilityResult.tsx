import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { AccessibilityAnalysis, AxeImpact } from '@inkwell/contract';
import { ViolationNodes } from './ViolationNodes';

const IMPACTS: (AxeImpact | null)[] = ['critical', 'serious', 'moderate', 'minor', null];

/** Score, then the violations grouped by impact (most severe first). */
export function AccessibilityResult({ analysis }: { analysis: AccessibilityAnalysis }) {
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="subtitle2" component="p">
        {`Accessibility score ${analysis.score}/100 · ${analysis.violations.length} violations · ${analysis.passes} rules passed · ${analysis.incomplete} need review`}
      </Typography>
      {analysis.not_checked?.length ? (
        // jsdom mode: say what was left out rather than let the score look complete.
        <Typography variant="body2" component="p" color="text.secondary">
          {`Checked without a browser: ${analysis.not_checked.map((id) => id.replace(/-/g, ' ')).join(', ')} not checked`}
        </Typography>
      ) : null}
      {IMPACTS.map((impact) => {
        const group = analysis.violations.filter((v) => v.impact === impact);
        if (group.length === 0) return null;
        return (
          <Box key={impact ?? 'unknown'} sx={{ mt: 1 }}>
            <Typography variant="body2" component="p" sx={{ fontWeight: 700 }}>
              {`${impact ? impact[0]!.toUpperCase() + impact.slice(1) : 'Unrated'} (${group.length})`}
            </Typography>
            <Box component="ul" sx={{ pl: 2.5, my: 0.5 }}>
              {group.map((v) => (
                <li key={v.id}>
                  <Typography variant="body2">
                    <Link href={v.help_url} target="_blank" rel="noopener noreferrer">
                      {v.id}
                    </Link>
                    {`: ${v.description} (${v.count} ${v.count === 1 ? 'element' : 'elements'})`}
                  </Typography>
                  <ViolationNodes violation={v} />
                </li>
              ))}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
