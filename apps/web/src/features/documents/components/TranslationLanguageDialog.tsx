import { useState } from 'react';
import DialogContentText from '@mui/material/DialogContentText';
import { FormDialog } from '../../../components/ui/FormDialog';
import { LanguageSelect } from './LanguageSelect';

/** 'Select Translation Language': a target language is required (spec §5). */
export function TranslationLanguageDialog({
  fileName,
  onConfirm,
  onClose,
}: {
  fileName: string;
  onConfirm: (language: string) => void;
  onClose: () => void;
}) {
  const [language, setLanguage] = useState('');
  return (
    <FormDialog
      id="language-dialog"
      title="Select Translation Language"
      onClose={onClose}
      primary={{ label: 'Translate', disabled: !language, onClick: () => onConfirm(language) }}
    >
      <DialogContentText>{`Translate ${fileName} into:`}</DialogContentText>
      <LanguageSelect
        id="translation-language"
        label="Target language"
        value={language}
        onChange={setLanguage}
      />
    </FormDialog>
  );
}
