// The size of an element in CSS pixels (whole pixels), kept up to date by a ResizeObserver: plots
// and the embed fit whatever room the page gives them.
import { useEffect, useRef, useState } from 'preact/hooks';

export function useElementSize<T extends HTMLElement>(): [preact.RefObject<T>, { width: number; height: number }] {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setSize({ width: Math.floor(element.clientWidth), height: Math.floor(element.clientHeight) });
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => observer.disconnect();
  }, []);
  return [ref, size];
}
