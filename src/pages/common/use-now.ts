import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';

/** The time now, ticking every `intervalMs` while the component is mounted, so "… ago" counts up between messages. */
export function useNow(intervalMs: number): number {
  const now = useSignal(Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      now.value = Date.now();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now.value;
}
