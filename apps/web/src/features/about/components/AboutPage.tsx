import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useDocumentTitle } from '../../../lib/use-document-title';

const FEATURES = [
  {
    title: 'Intelligent Chat',
    text: 'Ask questions in plain language and get clear answers, drafts and explanations from the AI assistant.',
  },
  {
    title: 'File Analysis',
    text: 'Upload PDF, Word, PowerPoint, Excel, CSV or text files, then proofread, summarize, translate, analyse sentiment or ask questions about them.',
  },
  {
    title: 'URL Analysis',
    text: 'Enter the address of a web page and get AI insights on its accessibility and its SEO.',
  },
];

/** About: the feature overview, Contact Us, GET STARTED and the copyright line. */
export function AboutPage({ onContact }: { onContact: () => void }) {
  useDocumentTitle('About');
  return (
    <Box sx={{ maxWidth: 900, width: '100%', mx: 'auto', px: { xs: 1.5, sm: 3 }, py: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        About Inkwell
      </Typography>
      <Typography sx={{ mb: 3 }}>
        Inkwell is a self-hostable AI content assistant that helps you write, understand and improve
        content: your questions, your documents and your web pages.
      </Typography>
      <Box
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}
      >
        {FEATURES.map((f) => (
          <Card key={f.title} variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2">
                {f.title}
              </Typography>
              <Typography>{f.text}</Typography>
            </CardContent>
          </Card>
        ))}
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2">
              Contact Us
            </Typography>
            <Typography>
              Questions, ideas or problems?{' '}
              <Link component="button" onClick={onContact} sx={{ verticalAlign: 'baseline' }}>
                Send us a message
              </Link>
              .
            </Typography>
          </CardContent>
        </Card>
      </Box>
      <Box sx={{ textAlign: 'center', my: 4 }}>
        <Button variant="contained" size="large" component={RouterLink} to="/">
          GET STARTED
        </Button>
      </Box>
      <Typography
        component="footer"
        variant="body2"
        color="text.secondary"
        sx={{ textAlign: 'center' }}
      >
        © {new Date().getFullYear()} Inkwell. All rights reserved.
      </Typography>
    </Box>
  );
}
