import { useCallback, useEffect, useRef, useState } from 'react';

/** One showing of a page in the rotation: which page, and for how long. */
export interface CarouselSlot {
  id: number;
  seconds: number;
}

/**
 * Steps through `slots` in a loop, each for its seconds. While `paused` (the pointer is over the
 * board) the clock stops and resumes with the time that was left. When the slots change under
 * it (a page edited, disabled or deleted), the slot on screen keeps its time if the same page is
 * still there, and a different page at that place starts afresh.
 */
export function useCarousel(slots: readonly CarouselSlot[], paused: boolean) {
  const [position, setPosition] = useState(0);
  const index = slots.length > 0 ? position % slots.length : 0;
  const slot = slots[index];
  const left = useRef<{ position: number; id: number; ms: number } | null>(null);
  const id = slot?.id;
  const seconds = slot?.seconds;

  useEffect(() => {
    if (id === undefined || seconds === undefined || paused) return;
    const kept = left.current;
    const ms = kept && kept.position === position && kept.id === id ? kept.ms : seconds * 1000;
    const started = Date.now();
    left.current = { position, id, ms };
    const timer = setTimeout(() => {
      left.current = null;
      setPosition((p) => p + 1);
    }, ms);
    return () => {
      clearTimeout(timer);
      if (left.current?.position === position) {
        left.current = { position, id, ms: Math.max(0, ms - (Date.now() - started)) };
      }
    };
  }, [position, id, seconds, paused]);

  const step = useCallback(
    (by: number) => {
      left.current = null;
      setPosition((p) => (slots.length > 0 ? (((p + by) % slots.length) + slots.length) % slots.length : 0));
    },
    [slots.length],
  );

  return { index, slot, next: () => step(1), previous: () => step(-1) };
}
