import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DarkMode from '@mui/icons-material/DarkMode';
import LightMode from '@mui/icons-material/LightMode';
import { useColorMode } from '../../theme/color-mode';

export function ThemeToggle() {
  const { mode, toggle } = useColorMode();
  return (
    // Rendered inside the header (not portalled to <body>) so the tip stays in a landmark.
    <Tooltip title="Change theme" slotProps={{ popper: { disablePortal: true } }}>
      <IconButton color="inherit" onClick={toggle} aria-label="Change theme">
        {mode === 'light' ? <DarkMode /> : <LightMode />}
      </IconButton>
    </Tooltip>
  );
}
