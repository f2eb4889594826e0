import { useState } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Search from '@mui/icons-material/Search';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { FAQ_ITEMS, filterFaq } from '../faq-data';

export function FaqPage() {
  useDocumentTitle('FAQ');
  const [query, setQuery] = useState('');
  // The first question is open by default; the user's choices override it.
  const [open, setOpen] = useState<Record<string, boolean>>({
    [FAQ_ITEMS[0]?.question ?? '']: true,
  });
  const items = filterFaq(FAQ_ITEMS, query);

  return (
    <Box sx={{ maxWidth: 800, width: '100%', mx: 'auto', px: { xs: 1.5, sm: 3 }, py: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Frequently Asked Questions
      </Typography>
      <TextField
        label="Search FAQs"
        type="search"
        fullWidth
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        sx={{ mb: 2 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Search />
              </InputAdornment>
            ),
          },
        }}
      />
      {items.length === 0 ? (
        <Typography role="status">No results found.</Typography>
      ) : (
        items.map((item) => {
          const id = `faq-${FAQ_ITEMS.indexOf(item)}`;
          return (
            <Accordion
              key={item.question}
              expanded={open[item.question] ?? false}
              onChange={(_e, expanded) => setOpen((o) => ({ ...o, [item.question]: expanded }))}
              // MUI wraps the summary in an <h3>; after the page's h1 it must be an h2.
              slotProps={{ heading: { component: 'h2' } }}
            >
              <AccordionSummary
                expandIcon={<ExpandMore />}
                aria-controls={`${id}-content`}
                id={`${id}-header`}
              >
                <Typography component="span" sx={{ fontWeight: 500 }}>
                  {item.question}
                </Typography>
              </AccordionSummary>
              <AccordionDetails>
                <Typography>{item.answer}</Typography>
              </AccordionDetails>
            </Accordion>
          );
        })
      )}
    </Box>
  );
}
