import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useTheme } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { ThemeToggle } from '../app/layout/ThemeToggle';
import { ColorModeProvider, THEME_STORAGE_KEY } from './color-mode';
import { COLORS } from './theme';

function Probe() {
  const t = useTheme();
  return (
    <span data-testid="probe">
      {t.palette.mode} {t.palette.background.default} {t.palette.background.paper}{' '}
      {t.palette.text.primary}
    </span>
  );
}

const renderToggle = () =>
  render(
    <ColorModeProvider>
      <ThemeToggle />
      <Probe />
    </ColorModeProvider>,
  );

describe('theme', () => {
  it('starts in light with the spec colours', () => {
    renderToggle();
    const { background, paper, text } = COLORS.light;
    expect(screen.getByTestId('probe')).toHaveTextContent(`light ${background} ${paper} ${text}`);
  });

  it('toggles to dark, remembers the choice, and shows the "Change theme" tooltip', async () => {
    const user = userEvent.setup();
    renderToggle();
    const button = screen.getByRole('button', { name: 'Change theme' });
    await user.hover(button);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Change theme');
    await user.click(button);
    const { background, paper, text } = COLORS.dark;
    expect(screen.getByTestId('probe')).toHaveTextContent(`dark ${background} ${paper} ${text}`);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    await user.click(button);
    expect(screen.getByTestId('probe')).toHaveTextContent('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  it('starts with the remembered choice', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    renderToggle();
    expect(screen.getByTestId('probe')).toHaveTextContent('dark');
  });

  it('uses the spec primary and secondary colours', () => {
    function Colors() {
      const t = useTheme();
      return (
        <span data-testid="c">{`${t.palette.primary.main} ${t.palette.primary.light} ${t.palette.secondary.main}`}</span>
      );
    }
    render(
      <ColorModeProvider>
        <Colors />
      </ColorModeProvider>,
    );
    expect(screen.getByTestId('c')).toHaveTextContent('#005b96 #4c8cbe #ffd700');
  });
});
