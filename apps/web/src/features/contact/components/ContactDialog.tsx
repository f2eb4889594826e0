import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ContactRequest } from '@inkwell/contract';
import { useSubmitContact } from '../api/submit-contact';
import { CONTACT_MESSAGES, validateContact, type ContactErrors } from '../validate-contact';
import { Captcha } from './Captcha';

const EMPTY: ContactRequest = { name: '', email: '', message: '', recaptchaToken: '' };

/** Contact Us: editing → 'Submitting...' → thank-you, or an error. */
export function ContactDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [values, setValues] = useState<ContactRequest>(EMPTY);
  const [errors, setErrors] = useState<ContactErrors>({});
  const submit = useSubmitContact();
  const set = (field: keyof ContactRequest) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found = validateContact(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    submit.mutate(values);
  }

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="contact-title">
      <DialogTitle id="contact-title">Contact Us</DialogTitle>
      {submit.isSuccess ? (
        <>
          <DialogContent>
            <Typography role="status">{CONTACT_MESSAGES.thanks}</Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
          </DialogActions>
        </>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <DialogContent sx={{ pt: 0 }}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {(['name', 'email'] as const).map((field) => (
                <TextField
                  key={field}
                  label={field === 'name' ? 'Name' : 'Email'}
                  type={field === 'email' ? 'email' : 'text'}
                  autoComplete={field}
                  required
                  fullWidth
                  value={values[field]}
                  onChange={(e) => set(field)(e.target.value)}
                  error={Boolean(errors[field])}
                  helperText={errors[field]}
                />
              ))}
              <TextField
                label="Message"
                required
                fullWidth
                multiline
                minRows={4}
                value={values.message}
                onChange={(e) => set('message')(e.target.value)}
                error={Boolean(errors.message)}
                helperText={errors.message}
              />
              <Captcha onToken={set('recaptchaToken')} />
              {errors.recaptchaToken && <Alert severity="error">{errors.recaptchaToken}</Alert>}
              {submit.isError && <Alert severity="error">{CONTACT_MESSAGES.failed}</Alert>}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="contained" disabled={submit.isPending}>
              {submit.isPending ? 'Submitting...' : 'Submit'}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
