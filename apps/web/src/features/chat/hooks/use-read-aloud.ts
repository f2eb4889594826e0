import { useEffect, useRef, useState } from 'react';

export const NO_TEXT_TO_SPEECH = "Sorry, your browser doesn't support text to speech!";

/**
 * The utterance speechSynthesis is reading now, whichever message started it. speechSynthesis is
 * one queue for the whole page, so a message may cancel it only while the utterance is its own:
 * otherwise message A, stopping because B took over, would cancel B.
 */
let active: SpeechSynthesisUtterance | null = null;

/** Read-aloud toggle of an ai message (spec §4): speaks, or stops speaking. */
export function useReadAloud(text: string) {
  const [speaking, setSpeaking] = useState(false);
  /** This message's utterance while it is being read. */
  const mine = useRef<SpeechSynthesisUtterance | null>(null);

  // Unmounted while reading (New Topic, logout): stop, unless another message took over since.
  useEffect(
    () => () => {
      if (mine.current && mine.current === active) {
        active = null;
        window.speechSynthesis?.cancel();
      }
      mine.current = null;
    },
    [],
  );

  function toggle() {
    if (!('speechSynthesis' in window) || typeof SpeechSynthesisUtterance === 'undefined') {
      window.alert(NO_TEXT_TO_SPEECH);
      return;
    }
    if (speaking) {
      if (mine.current && mine.current === active) {
        active = null;
        window.speechSynthesis.cancel();
      }
      mine.current = null;
      setSpeaking(false);
      return;
    }
    const utterance = new SpeechSynthesisUtterance(text);
    // Ended, failed, or cancelled because another message started: only this message stops.
    const finished = () => {
      if (active === utterance) active = null;
      if (mine.current === utterance) {
        mine.current = null;
        setSpeaking(false);
      }
    };
    utterance.onend = finished;
    utterance.onerror = finished;
    // Whatever is being read (another message's utterance) stops; its own `finished` clears it.
    window.speechSynthesis.cancel();
    mine.current = utterance;
    active = utterance;
    window.speechSynthesis.speak(utterance);
    setSpeaking(true);
  }

  return { speaking, toggle };
}
