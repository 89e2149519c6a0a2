import { useRef, useState } from 'react';

/**
 * State that key handlers read through a ref. Keys can arrive faster than React re-renders (a
 * Tab then an arrow, a name then Enter); a handler reading plain state could see the value from
 * before the previous key. Setting updates the ref at once and the state for rendering.
 */
export function useRefState<T>(initial: T | (() => T)): [T, (next: T | ((prev: T) => T)) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const ref = useRef(value);
  const set = (next: T | ((prev: T) => T)) => {
    ref.current = typeof next === 'function' ? (next as (prev: T) => T)(ref.current) : next;
    setValue(ref.current);
  };
  return [value, set, ref];
}
