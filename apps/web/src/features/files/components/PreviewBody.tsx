import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { PreviewResponse } from '@inkwell/contract';
import { DocxBlocks } from './DocxBlocks';

/**
 * Text (txt, docx), slides (pptx), tables (csv, xlsx) and a pdf's pages as text (`?format=text`,
 * pages read by OCR say so) at the chosen font size.
 */
export function PreviewBody({ preview, zoom }: { preview: PreviewResponse; zoom: number }) {
  const note = preview.truncated && (
    <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
      Only the beginning of the document is shown.
    </Typography>
  );
  if (preview.kind === 'text') {
    return (
      <Box sx={{ fontSize: zoom }}>
        {note}
        {preview.blocks?.length ? (
          <DocxBlocks blocks={preview.blocks} />
        ) : (
          <Box sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{preview.text}</Box>
        )}
      </Box>
    );
  }
  if (preview.kind === 'slides') {
    return (
      <Box sx={{ fontSize: zoom }}>
        {note}
        {preview.slides.map((s) => (
          <Box component="section" key={s.label} sx={{ mb: 2 }}>
            <Box component="h3" sx={{ fontSize: '1.1em', my: 0.5 }}>
              {s.label}
            </Box>
            <Box sx={{ whiteSpace: 'pre-wrap' }}>{s.text}</Box>
          </Box>
        ))}
      </Box>
    );
  }
  if (preview.kind === 'pages') {
    return (
      <Box sx={{ fontSize: zoom }}>
        {note}
        {preview.pages.map((p) => (
          <Box component="section" key={p.label} sx={{ mb: 2 }}>
            <Box component="h3" sx={{ fontSize: '1.1em', my: 0.5 }}>
              {p.label}
              {p.ocr && ' (read by OCR from the scanned image)'}
            </Box>
            <Box sx={{ whiteSpace: 'pre-wrap' }}>{p.text}</Box>
          </Box>
        ))}
      </Box>
    );
  }
  return (
    <Box sx={{ fontSize: zoom }}>
      {note}
      {preview.sheets.map((sheet) => (
        <Box key={sheet.name} sx={{ mb: 2 }}>
          {preview.sheets.length > 1 && (
            <Box component="h3" sx={{ fontSize: '1.1em', my: 0.5 }}>
              {sheet.name}
            </Box>
          )}
          <Box
            sx={{ overflowX: 'auto' }}
            tabIndex={0}
            role="region"
            aria-label={`Sheet ${sheet.name}`}
          >
            <Box
              component="table"
              sx={{
                borderCollapse: 'collapse',
                '& td, & th': { border: 1, borderColor: 'divider', px: 1, py: 0.25 },
              }}
            >
              <tbody>
                {sheet.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, c) =>
                      r === 0 ? <th key={c}>{cell}</th> : <td key={c}>{cell}</td>,
                    )}
                  </tr>
                ))}
              </tbody>
            </Box>
          </Box>
        </Box>
      ))}
    </Box>
  );
}
