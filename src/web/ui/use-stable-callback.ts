/**
 * A function of stable identity that always calls the latest `fn`: memoized children (the grid,
 * the filter builder) are not re-rendered because a parent re-created a handler.
 */
import { useCallback, useLayoutEffect, useRef } from "react";

export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const ref = useRef(fn);
  useLayoutEffect(() => {
    ref.current = fn;
  });
  return useCallback((...args: A) => ref.current(...args), []);
}
