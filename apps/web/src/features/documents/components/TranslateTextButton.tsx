import { lazy, Suspense, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Translate from '@mui/icons-material/Translate';

const TranslateTextDialog = lazy(() =>
  import('./TranslateTextDialog').then((m) => ({ default: m.TranslateTextDialog })),
);

/** In the chat input bar: opens 'Translate Text' with what is typed so far. */
export function TranslateTextButton({ disabled, text }: { disabled: boolean; text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip slotProps={{ popper: { disablePortal: true } }} title="Translate text">
        <span>
          <IconButton aria-label="Translate text" disabled={disabled} onClick={() => setOpen(true)}>
            <Translate />
          </IconButton>
        </span>
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <TranslateTextDialog
            initialText={text}
            onClose={() => setOpen(false)}
            onTranslate={(input) => {
              setOpen(false);
              void import('../run-text-translation').then((m) => m.runTextTranslation(input));
            }}
          />
        </Suspense>
      )}
    </>
  );
}
