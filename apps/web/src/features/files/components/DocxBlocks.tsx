import Box from '@mui/material/Box';
import type { DocBlock } from '@inkwell/contract';

// Cells wrap between words only (the table scrolls sideways instead): `anywhere`, right for
// paragraphs on a phone, broke a table's numbers across lines (issue 39).
const cellSx = {
  border: 1,
  borderColor: 'divider',
  px: 1,
  py: 0.5,
  textAlign: 'left',
  overflowWrap: 'normal',
} as const;

/** A figure (12,500 · -3.5 % · $1,200.00 · (42)): kept on one line. */
const isFigure = (text: string) => /\d/.test(text) && /^[\s\d.,%+\-−–()$€£¥]+$/.test(text);

/** A docx as Word laid it out: headings, paragraphs, lists and tables (data, never HTML). */
export function DocxBlocks({ blocks }: { blocks: DocBlock[] }) {
  return (
    <Box sx={{ overflowWrap: 'anywhere' }}>
      {blocks.map((b, i) => {
        switch (b.type) {
          case 'heading':
            return (
              // Inside the dialog (its title is h2), document headings start at h3.
              <Box
                key={i}
                component={`h${Math.min(6, b.level + 2)}` as 'h3'}
                sx={{ fontSize: `${1.5 - b.level * 0.1}em`, mt: 1.5, mb: 0.5 }}
              >
                {b.text}
              </Box>
            );
          case 'paragraph':
            return (
              <Box key={i} component="p" sx={{ my: 0.75 }}>
                {b.text}
              </Box>
            );
          case 'list':
            return (
              <Box key={i} component={b.ordered ? 'ol' : 'ul'} sx={{ pl: 3, my: 0.75 }}>
                {b.items.map((item, j) => (
                  <Box key={j} component="li" sx={{ ml: item.depth * 2 }}>
                    {item.text}
                  </Box>
                ))}
              </Box>
            );
          case 'table':
            return (
              <Box
                key={i}
                sx={{ overflowX: 'auto', my: 1 }}
                tabIndex={0}
                role="region"
                aria-label={`Table ${i + 1}`}
              >
                <Box component="table" sx={{ borderCollapse: 'collapse' }}>
                  <tbody>
                    {b.rows.map((row, r) => (
                      <tr key={r}>
                        {row.map((cell, c) => (
                          <Box
                            key={c}
                            component="td"
                            sx={{
                              ...cellSx,
                              ...(isFigure(cell) && { whiteSpace: 'nowrap', textAlign: 'right' }),
                            }}
                          >
                            {cell}
                          </Box>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </Box>
              </Box>
            );
        }
      })}
    </Box>
  );
}
