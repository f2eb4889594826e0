import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <Box sx={{ textAlign: 'center', px: 2, py: 8 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        404 - Page Not Found
      </Typography>
      <Typography sx={{ mb: 3 }}>The page you are looking for does not exist.</Typography>
      <Button variant="contained" component={RouterLink} to="/">
        Go to home
      </Button>
    </Box>
  );
}
