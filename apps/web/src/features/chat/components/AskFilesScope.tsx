import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import TravelExplore from '@mui/icons-material/TravelExplore';
import { TooltipIconButton } from '../../../components/ui/TooltipIconButton';
import { filesQuestion, type FilesQuestionState } from '../../../lib/files-question';
import { SCOPE_ID, scopeText } from './ask-files-scope-text';

/**
 * The line above the text area while "Ask my files" is on: the whole folder, or the files picked
 * in the drawer, each removable (click, Enter, or Delete on the chip); 'Pick files' opens the
 * drawer to choose them; the cross ends the mode.
 */
export function AskFilesScope({
  state,
  onPickFiles,
}: {
  state: FilesQuestionState;
  onPickFiles?: () => void;
}) {
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75, px: 1, pt: 0.5 }}
    >
      <TravelExplore fontSize="small" color="action" aria-hidden />
      <Typography id={SCOPE_ID} variant="body2" component="span">
        {state.picked.length > 0 ? `${scopeText(state)}:` : scopeText(state)}
      </Typography>
      {state.picked.length > 0 && (
        <Box
          component="ul"
          aria-label="Picked files"
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, m: 0, p: 0, listStyle: 'none' }}
        >
          {state.picked.map((f) => (
            <Box component="li" key={f.id} sx={{ maxWidth: '100%' }}>
              <Chip
                size="small"
                label={f.fileName}
                aria-label={`Remove ${f.fileName}`}
                onClick={() => filesQuestion.unpick(f.id)}
                onDelete={() => filesQuestion.unpick(f.id)}
                sx={{ maxWidth: '100%' }}
              />
            </Box>
          ))}
        </Box>
      )}
      {onPickFiles && (
        <Button size="small" onClick={onPickFiles}>
          Pick files
        </Button>
      )}
      <Box sx={{ flexGrow: 1 }} />
      <TooltipIconButton
        title="Stop asking my files"
        size="small"
        onClick={() => filesQuestion.setOn(false)}
      >
        <Close fontSize="small" />
      </TooltipIconButton>
    </Box>
  );
}
