import Typography from '@mui/material/Typography';

/** A result line under a form: success in blue, errors in red (spec §2, reset password). */
export function StatusText({ kind, children }: { kind: 'success' | 'error'; children: string }) {
  return (
    <Typography
      role={kind === 'error' ? 'alert' : 'status'}
      sx={{
        mt: 2,
        color: (t) =>
          kind === 'error'
            ? t.palette.error.main
            : t.palette.mode === 'dark'
              ? t.palette.primary.light
              : t.palette.primary.main,
      }}
    >
      {children}
    </Typography>
  );
}
