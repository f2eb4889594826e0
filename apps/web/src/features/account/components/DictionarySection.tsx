import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Close from '@mui/icons-material/Close';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { dictionaryWordSchema } from '@inkwell/contract';
import { TooltipIconButton } from '../../../components/ui/TooltipIconButton';
import { ApiError } from '../../../lib/api-client';
import { useDictionary, useDictionaryChange } from '../api/personal-dictionary';

/**
 * The personal dictionary: names and terms proofreading never flags nor changes for this user.
 * A word is added with Enter or Add, removed with its chip's delete button.
 */
export function DictionarySection() {
  const { data } = useDictionary();
  const change = useDictionaryChange();
  const [word, setWord] = useState('');
  const [error, setError] = useState<string>();
  const words = data?.words ?? [];

  const add = (e: FormEvent) => {
    e.preventDefault();
    const parsed = dictionaryWordSchema.safeParse(word);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    change.mutate(
      { word: parsed.data },
      {
        onSuccess: () => setWord(''),
        onError: (err) =>
          setError(err instanceof ApiError ? (err.serverMessage ?? err.message) : String(err)),
      },
    );
  };

  return (
    <Box>
      <Box
        component="form"
        onSubmit={add}
        sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
      >
        <TextField
          size="small"
          label="Add a word"
          value={word}
          onChange={(e) => setWord(e.target.value)}
          error={error !== undefined}
          helperText={error ?? 'Names and terms proofreading should take as written.'}
          sx={{ flexGrow: 1 }}
        />
        <Button type="submit" variant="outlined" disabled={change.isPending || !word.trim()}>
          Add
        </Button>
      </Box>
      {words.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Your dictionary is empty.
        </Typography>
      ) : (
        <Box
          component="ul"
          aria-label="Your dictionary"
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, mt: 1 }}
        >
          {words.map((w) => (
            <Box
              component="li"
              key={w}
              sx={{
                display: 'flex',
                alignItems: 'center',
                pl: 1.5,
                border: 1,
                borderColor: 'divider',
                borderRadius: 4,
              }}
            >
              <Typography variant="body2">{w}</Typography>
              <TooltipIconButton
                title={`Remove ${w}`}
                label={`Remove ${w}`}
                size="small"
                onClick={() => change.mutate({ word: w, remove: true })}
              >
                <Close fontSize="small" />
              </TooltipIconButton>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
