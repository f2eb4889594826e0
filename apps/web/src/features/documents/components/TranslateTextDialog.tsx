import { useState } from 'react';
import TextField from '@mui/material/TextField';
import { FormDialog } from '../../../components/ui/FormDialog';
import { LanguageSelect } from './LanguageSelect';

export interface TranslateTextInput {
  text: string;
  targetLanguage: string;
  sourceLanguage?: string;
}

/** 'Translate Text': the text, a required target language and an optional source language. */
export function TranslateTextDialog({
  initialText,
  onTranslate,
  onClose,
}: {
  initialText: string;
  onTranslate: (input: TranslateTextInput) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState(initialText);
  const [target, setTarget] = useState('');
  const [source, setSource] = useState('');
  const ready = text.trim().length > 0 && target !== '';
  return (
    <FormDialog
      id="translate-text"
      title="Translate Text"
      maxWidth="sm"
      onClose={onClose}
      primary={{
        label: 'Translate',
        disabled: !ready,
        onClick: () =>
          onTranslate({
            text: text.trim(),
            targetLanguage: target,
            sourceLanguage: source || undefined,
          }),
      }}
    >
      <TextField
        id="translate-text"
        label="Text to translate"
        value={text}
        onChange={(e) => setText(e.target.value)}
        multiline
        minRows={3}
        fullWidth
        required
        margin="normal"
      />
      <LanguageSelect
        id="translate-source"
        label="Source language"
        value={source}
        onChange={setSource}
        emptyLabel="Detect automatically"
      />
      <LanguageSelect
        id="translate-target"
        label="Target language"
        value={target}
        onChange={setTarget}
      />
    </FormDialog>
  );
}
