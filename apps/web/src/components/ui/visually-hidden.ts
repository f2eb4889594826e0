/**
 * `sx` that hides text visually but keeps it for assistive technology. Sizes are strings: MUI's
 * `sx` reads a number ≤ 1 as a fraction, so `width: 1` meant 100 % and pushed a 360 px screen
 * sideways.
 */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
