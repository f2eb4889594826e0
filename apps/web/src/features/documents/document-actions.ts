/** The AI actions on a document (spec §9 action names) and their labels in menus and messages. */
export type DocumentAction =
  'proofread' | 'analyzeSentiment' | 'summarize' | 'askQuestions' | 'translate';

export const ACTION_LABELS: Record<DocumentAction, string> = {
  proofread: 'Proofread',
  analyzeSentiment: 'Sentiment Analysis',
  summarize: 'Summarize',
  askQuestions: 'Ask Questions',
  translate: 'Translate',
};

export const DOCUMENT_ACTIONS = Object.keys(ACTION_LABELS) as DocumentAction[];
