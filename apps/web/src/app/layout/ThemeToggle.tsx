import { TooltipIconButton } from '../../components/ui/TooltipIconButton';
import DarkMode from '@mui/icons-material/DarkMode';
import LightMode from '@mui/icons-material/LightMode';
import { useColorMode } from '../../theme/color-mode';

export function ThemeToggle() {
  const { mode, toggle } = useColorMode();
  return (
    // Rendered inside the header (not portalled to <body>) so the tip stays in a landmark.
    <TooltipIconButton title="Change theme" color="inherit" onClick={toggle}>
      {mode === 'light' ? <DarkMode /> : <LightMode />}
    </TooltipIconButton>
  );
}
