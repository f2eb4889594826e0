import Box from '@mui/material/Box';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * An ai reply rendered as Markdown (GFM: code blocks, lists, tables). Raw HTML in the reply is
 * dropped (`skipHtml`) and react-markdown's default URL filter removes `javascript:` links.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <Box
      sx={{
        overflowWrap: 'anywhere',
        '& > :first-of-type': { mt: 0 },
        '& > :last-child': { mb: 0 },
        '& pre': { p: 1.5, borderRadius: 1, overflowX: 'auto', bgcolor: 'action.hover' },
        '& code': { fontFamily: 'monospace', fontSize: '0.9em' },
        '& table': { borderCollapse: 'collapse', display: 'block', overflowX: 'auto' },
        '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5 },
        '& a': { color: (t) => (t.palette.mode === 'dark' ? 'primary.light' : 'primary.main') },
      }}
    >
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </Box>
  );
}
