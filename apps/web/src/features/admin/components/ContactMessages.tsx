import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useContactMessages } from '../api/get-contact-messages';
import { formatDateTime } from '../format';

/**
 * What people sent with the contact form. Without CONTACT_TO nothing is mailed: this list is
 * where an operator reads them (and answers by mail, from the sender's address).
 */
export function ContactMessages() {
  const { data, isPending, isError } = useContactMessages();
  if (isPending) return <CircularProgress aria-label="Loading contact messages" />;
  if (isError) {
    return <Alert severity="error">Error loading the contact messages, please try again.</Alert>;
  }
  const where = data.mailed_to
    ? `Each message is also mailed to ${data.mailed_to} (CONTACT_TO).`
    : 'CONTACT_TO is not set, so they are not mailed: read them here.';
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {where}
      </Typography>
      {data.messages.length === 0 ? (
        <Typography variant="body2">No messages yet.</Typography>
      ) : (
        <List aria-label="Contact messages" disablePadding>
          {data.messages.map((m) => (
            <ListItem
              key={m.id}
              divider
              disableGutters
              sx={{ display: 'block', overflowWrap: 'anywhere' }}
            >
              <Typography variant="subtitle2" component="p">
                {m.name} ·{' '}
                <Link href={`mailto:${m.email}`} underline="hover">
                  {m.email}
                </Link>{' '}
                · {formatDateTime(m.created_at)}
              </Typography>
              <Typography variant="body2" component="p" sx={{ whiteSpace: 'pre-wrap' }}>
                {m.message}
              </Typography>
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
}
