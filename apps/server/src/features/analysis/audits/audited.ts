/** What an audit found (the analysis without the model's insights), and the same as prompt lines. */
export interface Audited<T> {
  analysis: Omit<T, 'ai_insights'>;
  findings: string[];
}
