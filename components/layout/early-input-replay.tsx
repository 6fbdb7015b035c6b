'use client';
import { useEffect } from 'react';
import { takeEarlySubmit } from './early-input';

/**
 * Sends again, by script, a form that was sent before the page had hydrated (./early-input.ts): the
 * inline script kept the browser from sending it itself, and the text typed is still in the fields.
 * Rendered once, after the page in the root layout, so the form's own handlers are in place.
 */
export function EarlyInputReplay() {
  useEffect(() => {
    takeEarlySubmit()?.requestSubmit();
  }, []);
  return null;
}
