import { useCallback, useRef, useState } from 'react';

/**
 * An element held both ways: `ref` for effects and handlers, `element` (state) for what is rendered
 * with it, `attach` as the element's `ref` prop. React forbids reading a ref while rendering.
 */
export function useElement<T extends Element>() {
  const ref = useRef<T | null>(null);
  const [element, setElement] = useState<T | null>(null);
  const attach = useCallback((node: T | null) => {
    ref.current = node;
    setElement(node);
  }, []);
  return { ref, element, attach };
}
