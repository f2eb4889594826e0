import { lazy, Suspense, useCallback, useState } from 'react';
import type { DocumentSource } from '../api/document-form';
import type { DocumentAction } from '../document-actions';

const TranslationLanguageDialog = lazy(() =>
  import('../components/TranslationLanguageDialog').then((m) => ({
    default: m.TranslationLanguageDialog,
  })),
);

// The runner (and the result views it builds) loads on first use, outside the first chunk.
const run = (action: DocumentAction, source: DocumentSource, language?: string) =>
  import('../run-document-action').then((m) => m.runDocumentAction(action, source, language));

/**
 * Starts document actions. Translate first asks for the language ('Select Translation
 * Language'); render `dialogs` somewhere in the tree.
 */
export function useDocumentActions() {
  const [translating, setTranslating] = useState<DocumentSource | null>(null);

  const start = useCallback((action: DocumentAction, source: DocumentSource) => {
    if (action === 'translate') setTranslating(source);
    else void run(action, source);
  }, []);

  const dialogs = translating && (
    <Suspense fallback={null}>
      <TranslationLanguageDialog
        fileName={translating.fileName}
        onClose={() => setTranslating(null)}
        onConfirm={(language) => {
          setTranslating(null);
          void run('translate', translating, language);
        }}
      />
    </Suspense>
  );

  return { start, dialogs };
}
