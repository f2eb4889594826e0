import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ProofreadIssue, ProofreadKeptReason, ProofreadResponse } from '@inkwell/contract';
import { correctionSegments, textWithout } from './corrections';
import { DownloadResponseButton } from './DownloadResponseButton';

const MAX_LISTED = 50;

/** Why a flagged word was left as written, in the user's words. */
const KEPT: Record<ProofreadKeptReason, string> = {
  'all-caps': 'a word in capitals',
  acronym: 'an acronym',
  name: 'a name',
  'document-term': 'a term this document uses several times',
  dictionary: 'in your dictionary',
  'other-language': 'another language',
  code: 'an address, a file name or code',
  uncertain: 'maybe not a typo',
  'no-suggestion': 'no suggestion',
  overlap: 'overlaps another correction',
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The corrected text with each applied change marked, the list of changes (each can be undone,
 * and redone, before download), then the findings kept as written and why.
 */
export function ProofreadResult({ result }: { result: ProofreadResponse }) {
  const segments = useMemo(
    () => correctionSegments(result.corrected_text, result.issues),
    [result.corrected_text, result.issues],
  );
  const [undone, setUndone] = useState<ReadonlySet<number>>(new Set());
  const changes = segments.flatMap((s) => (s.change ? [s.change] : []));
  const kept = result.issues.filter((i) => i.correction === undefined);
  const toggle = (index: number) =>
    setUndone((prev) => {
      const next = new Set(prev);
      if (!next.delete(index)) next.add(index);
      return next;
    });
  const text = textWithout(segments, undone);
  return (
    <Box sx={{ mt: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="subtitle2" component="p" sx={{ flexGrow: 1 }}>
          {`Corrected text: ${plural(changes.length - undone.size, 'change')}` +
            (undone.size ? ` (${undone.size} undone)` : '') +
            ` · ${plural(result.issues.length, 'issue')} found` +
            (result.truncated ? ' · beginning of the document only' : '')}
        </Typography>
        <DownloadResponseButton text={text} label="Download corrected text" />
      </Box>
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
          s.change && !undone.has(s.change.index) ? (
            <Box
              component="mark"
              key={i}
              title={`Was “${s.change.original}”: ${s.change.issue.message}`}
              sx={{ bgcolor: '#fff3a3', color: '#1a1a1a', borderRadius: 0.5, px: 0.25 }}
            >
              {s.text}
            </Box>
          ) : (
            <span key={i}>{s.change ? s.change.original : s.text}</span>
          ),
        )}
      </Box>
      {changes.length > 0 && (
        <Box component="ul" aria-label="Changes applied" sx={{ pl: 2.5, my: 1 }}>
          {changes.map((c) => (
            <Box component="li" key={c.index} sx={{ mb: 0.5 }}>
              <Typography variant="body2" component="span">
                {`“${c.original}” → “${c.issue.correction}” (${c.issue.rule})`}
              </Typography>
              <Button
                size="small"
                sx={{ ml: 1, py: 0, minWidth: 0 }}
                aria-pressed={undone.has(c.index)}
                aria-label={`${undone.has(c.index) ? 'Redo' : 'Undo'}: “${c.original}” → “${c.issue.correction}”`}
                onClick={() => toggle(c.index)}
              >
                {undone.has(c.index) ? 'Redo' : 'Undo'}
              </Button>
            </Box>
          ))}
        </Box>
      )}
      {kept.length > 0 && <KeptList issues={kept} />}
    </Box>
  );
}

/** The findings the corrected text leaves as written, each with why (or its suggestions). */
function KeptList({ issues }: { issues: ProofreadIssue[] }) {
  return (
    <>
      <Typography variant="body2" component="p" sx={{ fontWeight: 700, mt: 1 }}>
        {`Kept as written (${issues.length})`}
      </Typography>
      <Box component="ul" aria-label="Kept as written" sx={{ pl: 2.5, my: 0.5 }}>
        {issues.slice(0, MAX_LISTED).map((issue, i) => (
          <li key={i}>
            <Typography variant="body2">
              <strong>{issue.rule}:</strong> {issue.message}
              {issue.kept && ` — ${KEPT[issue.kept]}`}
              {issue.suggestions.length > 0 && ` (suggested: ${issue.suggestions.join(', ')})`}
            </Typography>
          </li>
        ))}
      </Box>
      {issues.length > MAX_LISTED && (
        <Typography variant="body2">{`…and ${issues.length - MAX_LISTED} more.`}</Typography>
      )}
    </>
  );
}
