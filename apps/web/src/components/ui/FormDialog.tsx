import type { ReactNode, RefObject } from 'react';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';

export interface DialogPrimaryAction {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  color?: 'primary' | 'error';
}

/**
 * The shell every small dialog of the app shares: a title that names the dialog for screen
 * readers, its content, Cancel, and at most one primary action.
 */
export function FormDialog({
  id,
  title,
  onClose,
  primary,
  describedBy,
  maxWidth = 'xs',
  initialFocus,
  children,
}: {
  /** Prefix of the element ids; the title is `${id}-title`. */
  id: string;
  title: string;
  onClose: () => void;
  primary?: DialogPrimaryAction;
  describedBy?: string;
  maxWidth?: DialogProps['maxWidth'];
  /**
   * A text field to focus, its text selected, once the dialog is open (instead of the dialog
   * itself): set when the dialog exists to edit that text. Done when the opening transition ends,
   * after the menu that opened the dialog has handed the focus back.
   */
  initialFocus?: RefObject<HTMLInputElement | null>;
  children: ReactNode;
}) {
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={describedBy}
      fullWidth
      maxWidth={maxWidth}
      slotProps={
        initialFocus && {
          transition: {
            onEntered: (node: HTMLElement) => {
              // Unless the user already moved the focus inside the dialog (a quick Tab).
              const active = document.activeElement;
              if (active && node.contains(active) && active.getAttribute('role') !== 'dialog')
                return;
              initialFocus.current?.focus();
              initialFocus.current?.select();
            },
          },
        }
      }
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        {primary && (
          <Button
            variant="contained"
            color={primary.color ?? 'primary'}
            disabled={primary.disabled}
            onClick={primary.onClick}
          >
            {primary.label}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
