import { lazy, Suspense, useState } from 'react';
import { TooltipIconButton } from '../../../components/ui/TooltipIconButton';
import Translate from '@mui/icons-material/Translate';

const TranslateTextDialog = lazy(() =>
  import('./TranslateTextDialog').then((m) => ({ default: m.TranslateTextDialog })),
);

/** In the chat input bar: opens 'Translate Text' with what is typed so far. */
export function TranslateTextButton({ disabled, text }: { disabled: boolean; text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <TooltipIconButton title="Translate text" disabled={disabled} onClick={() => setOpen(true)}>
        <Translate />
      </TooltipIconButton>
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
