/** Entries of the per-file context menu (spec §2), in menu order. */
export type FileMenuAction =
  | 'open'
  | 'proofread'
  | 'analyzeSentiment'
  | 'summarize'
  | 'askQuestions'
  | 'translate'
  | 'download'
  | 'rename'
  | 'delete'
  | 'deleteAll';

/** The AI actions the menu hands to the routes (the documents feature runs them). */
export type FileDocumentAction = Extract<
  FileMenuAction,
  'proofread' | 'analyzeSentiment' | 'summarize' | 'askQuestions' | 'translate'
>;

/** Why some entries cannot be used now ("No language model is available…"): shown, disabled. */
export type UnavailableActions = Partial<Record<FileMenuAction, string>>;

export const MENU_LABELS: Record<FileMenuAction, string> = {
  open: 'Open',
  proofread: 'Proofread',
  analyzeSentiment: 'Sentiment Analysis',
  summarize: 'Summarize',
  askQuestions: 'Ask Questions',
  translate: 'Translate',
  download: 'Download',
  rename: 'Rename',
  delete: 'Delete',
  deleteAll: 'Delete All',
};

export const FULL_MENU = Object.keys(MENU_LABELS) as FileMenuAction[];
/** The side drawer's MyFiles panel: open preview, download, rename, delete, delete all. */
export const PANEL_MENU: FileMenuAction[] = ['open', 'download', 'rename', 'delete', 'deleteAll'];

export const isDocumentAction = (a: FileMenuAction): a is FileDocumentAction =>
  a === 'proofread' ||
  a === 'analyzeSentiment' ||
  a === 'summarize' ||
  a === 'askQuestions' ||
  a === 'translate';
