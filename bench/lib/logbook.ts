/**
 * A plain-text logbook of about `kb` kilobytes in paragraphs, the document the fairness,
 * progress and embedded benches summarize. `owner` makes each user's text distinct (so no cache
 * answers one user's summary from another's).
 */
export function logbook(kb: number, owner?: string): Buffer {
  const whose = owner ? `${owner}'s logbook` : 'the logbook';
  const parts: string[] = [];
  for (let i = 0, size = 0; size < kb * 1024; i++) {
    const s = `Entry ${i} of ${whose}: the harbour counted ${i % 23} ships and ${i % 7} storms.`;
    parts.push(i % 6 === 5 ? `${s}\n\n` : `${s} `);
    size += s.length + 1;
  }
  return Buffer.from(parts.join(''));
}
