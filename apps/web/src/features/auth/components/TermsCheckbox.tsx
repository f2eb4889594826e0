import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import { withBase } from '../../../lib/base-path';

interface Props {
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}

export function TermsCheckbox({ checked, onChange, error }: Props) {
  const newTab = { target: '_blank', rel: 'noopener noreferrer' };
  return (
    <FormControl error={Boolean(error)}>
      <FormControlLabel
        control={
          <Checkbox
            checked={checked}
            onChange={(e) => onChange(e.target.checked)}
            slotProps={{ input: { 'aria-describedby': error ? 'terms-error' : undefined } }}
          />
        }
        label={
          <>
            I agree to the{' '}
            <Link href={withBase('terms.html')} {...newTab}>
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link href={withBase('privacy.html')} {...newTab}>
              Privacy Policy
            </Link>
          </>
        }
      />
      {error && <FormHelperText id="terms-error">{error}</FormHelperText>}
    </FormControl>
  );
}
