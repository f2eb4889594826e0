import Box from '@mui/material/Box';
import Close from '@mui/icons-material/Close';
import QuestionAnswerOutlined from '@mui/icons-material/QuestionAnswerOutlined';
import { TooltipIconButton } from '../../../components/ui/TooltipIconButton';
import { conversation, useConversation } from '../../../lib/conversation';

/**
 * Question mode, visible: while it lasts every message sent is a question about this file. It
 * stays until the person leaves it here (or a New Topic): one answer does not end it.
 */
export function QuestionModeChip() {
  const { questionTarget } = useConversation();
  if (!questionTarget) return null;
  const name = questionTarget.fileName;
  return (
    <Box
      role="status"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        maxWidth: '100%',
        mb: 0.5,
        pl: 1.5,
        border: 1,
        borderColor: 'primary.main',
        borderRadius: 4,
        bgcolor: 'background.paper',
      }}
    >
      <QuestionAnswerOutlined fontSize="small" color="primary" aria-hidden />
      <Box
        component="span"
        sx={{
          fontSize: '0.875rem',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
      >
        Questions about <strong>{name}</strong>
      </Box>
      <TooltipIconButton
        title="Stop asking about this file"
        label={`Stop asking about ${name}`}
        size="small"
        onClick={() => conversation.setQuestionTarget(null)}
      >
        <Close fontSize="small" />
      </TooltipIconButton>
    </Box>
  );
}
