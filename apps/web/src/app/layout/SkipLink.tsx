import Link from '@mui/material/Link';

/** First focusable element: lets keyboard users jump past the top bar and the drawer. */
export function SkipLink() {
  return (
    <Link
      href="#main-content"
      onClick={(e) => {
        e.preventDefault();
        document.getElementById('main-content')?.focus();
      }}
      sx={{
        position: 'absolute',
        left: 8,
        top: -48,
        zIndex: (t) => t.zIndex.tooltip + 1,
        bgcolor: 'background.paper',
        px: 2,
        py: 1,
        borderRadius: 1,
        '&:focus': { top: 8 },
      }}
    >
      Skip to main content
    </Link>
  );
}
