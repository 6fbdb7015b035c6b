'use client';
/**
 * A modal dialog with a title and any content, for forms (`ConfirmDialog` in components/cinema asks
 * yes/no questions). Nothing is rendered or downloaded until it first opens; then Radix Dialog
 * (./modal-panel.tsx) loads and stays.
 */
import { lazy, Suspense, useState } from 'react';
import type { ModalPanelProps } from './modal-panel';

const ModalPanel = lazy(() => import('./modal-panel').then((module) => ({ default: module.ModalPanel })));

export type ModalProps = ModalPanelProps;

export function Modal(props: ModalProps) {
  // True from the first open on (adjusted during render, so the opening render already asks for it).
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <ModalPanel {...props} />
    </Suspense>
  );
}
