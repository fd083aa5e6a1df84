/**
 * Calls `onVisible` when the returned element scrolls into view (IntersectionObserver):
 * the "load more" trigger of infinite lists. The element also holds a button, for keyboards.
 */
import { useEffect, useRef } from 'react';

export function useSentinel(onVisible: () => void, active: boolean, margin = '400px') {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const element = ref.current;
    if (!element || !active) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) callback.current();
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [active, margin]);
  return ref;
}
