import { useEffect, useState } from 'react';

export const NO_TEXT_TO_SPEECH = "Sorry, your browser doesn't support text to speech!";

/** Read-aloud toggle of an ai message (spec §4): speaks, or stops speaking. */
export function useReadAloud(text: string) {
  const [speaking, setSpeaking] = useState(false);

  useEffect(
    () => () => {
      if (speaking) window.speechSynthesis?.cancel();
    },
    [speaking],
  );

  function toggle() {
    if (!('speechSynthesis' in window) || typeof SpeechSynthesisUtterance === 'undefined') {
      window.alert(NO_TEXT_TO_SPEECH);
      return;
    }
    if (speaking) {
      window.speechSynthesis.cancel();
      setSpeaking(false);
      return;
    }
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.onend = () => setSpeaking(false);
    utterance.onerror = () => setSpeaking(false);
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
    setSpeaking(true);
  }

  return { speaking, toggle };
}
