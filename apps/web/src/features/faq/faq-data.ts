export interface FaqItem {
  question: string;
  answer: string;
}

/** The 13 questions and answers of the FAQ (spec §1). */
export const FAQ_ITEMS: FaqItem[] = [
  {
    question: 'What is Inkwell?',
    answer:
      'Inkwell is an AI content assistant. You can chat with an AI, upload documents and have them proofread, summarized, translated or analysed for sentiment, ask questions about them, and check a web page for accessibility and SEO.',
  },
  {
    question: 'Is Inkwell free?',
    answer:
      'Yes, Inkwell is free for now. If that ever changes, we will tell you well in advance and nothing will be charged without your explicit agreement.',
  },
  {
    question: 'Is the service experimental?',
    answer:
      'Yes. Inkwell is an experimental service: features may change, and AI responses may display inaccurate info. Always check important results yourself.',
  },
  {
    question: 'Which AI model does Inkwell use?',
    answer:
      'Inkwell uses a small general-purpose language model. It is fast and good at everyday writing tasks, but it is not a specialist: it can make mistakes on facts, figures and specialised subjects.',
  },
  {
    question: 'Do I need an account?',
    answer:
      'You can read the public pages without one. To chat, upload files or analyse pages, sign up with your email address and a password of 8 to 128 characters, then sign in.',
  },
  {
    question: 'How does the chat work, and can I use my voice?',
    answer:
      'Type a question of up to 1000 characters in the box at the bottom of the home page and press Enter (Shift+Enter adds a new line). Each reply shows a counter of the prompts you have used. Choose New Topic in the menu to start over. You can also speak instead of typing: press the Voice input (microphone) button, ask your question in English, and your words appear in the box when you stop talking. To hear a reply, press its Read aloud button; press it again to stop. Voice input and read-aloud use your browser’s speech features, so they work only in browsers that support them; otherwise a message tells you so.',
  },
  {
    question: 'Which files can I upload, and how large can they be?',
    answer:
      'You can upload PDF, Word (docx), PowerPoint (pptx), Excel (xlsx), CSV and plain text files. The maximum file size is 10 MB (text files 2 MB, CSV files 5 MB).',
  },
  {
    question: 'How much storage do I have?',
    answer:
      'Each account can store up to 100 MB of files in total. Delete files you no longer need from My Files to free up space.',
  },
  {
    question: 'How do I proofread, summarize or analyse the sentiment of a document?',
    answer:
      'Open My Files from the account menu, open the menu of a file and choose Proofread, Summarize or Sentiment Analysis. The result appears in the chat when it is ready.',
  },
  {
    question: 'How does translation work?',
    answer:
      'You can translate typed text, or a stored file from its menu in My Files. Pick one of 27 target languages, and the translation appears in the chat.',
  },
  {
    question: 'Can I ask questions about a document?',
    answer:
      'Yes. Choose Ask Questions for a file; the next message you send is answered using that document’s content.',
  },
  {
    question: 'How does web page analysis work?',
    answer:
      'Use the Add URL button next to the chat box, enter the address of a public web page and choose an accessibility or SEO analysis. The AI’s findings and suggestions appear in the chat.',
  },
  {
    question: 'How do I download or delete my data?',
    answer:
      'On your Account page, Download Your Data saves everything we hold about you as a CSV file, and Delete your account removes your account and all your files permanently.',
  },
];

/** Case-insensitive match on question or answer. */
export function filterFaq(items: FaqItem[], query: string): FaqItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return items;
  return items.filter(
    (i) => i.question.toLowerCase().includes(q) || i.answer.toLowerCase().includes(q),
  );
}
