import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import Translate from '@mui/icons-material/Translate';
import Analytics from '@mui/icons-material/Analytics';
import SmartToy from '@mui/icons-material/SmartToy';
import Spellcheck from '@mui/icons-material/Spellcheck';

const FEATURES = [
  {
    title: 'Instant Translation',
    text: 'Translate typed text or your documents into 27 languages.',
    icon: <Translate />,
  },
  {
    title: 'Content Analysis',
    text: 'Check the sentiment of a document, or a web page for accessibility and SEO.',
    icon: <Analytics />,
  },
  {
    title: 'AI Assistance',
    text: 'Ask questions and get answers, or ask about a document you uploaded.',
    icon: <SmartToy />,
  },
  {
    title: 'Proofread or Summarize',
    text: 'Fix spelling and grammar, or get the gist of a long document.',
    icon: <Spellcheck />,
  },
];

/**
 * The empty chat: a greeting (with the first name when signed in) and the four features of spec
 * §2, as plain text: framed as cards they looked clickable and did nothing (issue 39).
 */
export function WelcomeScreen({ firstName }: { firstName: string }) {
  return (
    <Box
      component="section"
      aria-labelledby="welcome-title"
      sx={{ textAlign: 'center', mt: { xs: 1, sm: 4 } }}
    >
      <Typography
        id="welcome-title"
        variant="h4"
        component="h1"
        sx={{ fontSize: { xs: '1.6rem', sm: '2.1rem' } }}
      >
        {firstName ? `Hello, ${firstName}!` : 'Hello!'}
      </Typography>
      <Typography sx={{ mt: 1, mb: 3 }} color="text.secondary">
        How can I help you today?
      </Typography>
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
        }}
      >
        {FEATURES.map((f) => (
          <Box component="li" key={f.title}>
            {/* Plain text, no card frame: they tell what the chat does and are not buttons. */}
            <Box sx={{ display: 'flex', gap: 1.5, height: '100%', textAlign: 'left', p: 1 }}>
              <Box sx={{ color: 'primary.main', pt: 0.25 }} aria-hidden>
                {f.icon}
              </Box>
              <Box>
                <Typography variant="h6" component="h2" sx={{ fontSize: '1.05rem' }}>
                  {f.title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {f.text}
                </Typography>
              </Box>
            </Box>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
