/** The inline script's forms before hydration, as the page meets them (./early-input.ts). */
import { EARLY_INPUT_SCRIPT, takeEarlySubmit } from './early-input';

/** Dispatches a submit as the browser does; true when the browser's own sending was cancelled. */
function submit(form: HTMLFormElement): boolean {
  if (!form.isConnected) document.body.appendChild(form);
  const event = new Event('submit', { bubbles: true, cancelable: true });
  form.dispatchEvent(event);
  return event.defaultPrevented;
}

let removeListeners: (() => void)[] = [];

/** Runs the inline script as the page does; its listeners are removed after the test. */
function runScript(): void {
  for (const target of [window, document] as EventTarget[]) {
    const add = target.addEventListener.bind(target);
    target.addEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
      removeListeners.push(() => target.removeEventListener(type, listener, options));
      add(type, listener, options);
    };
  }
  window.eval(EARLY_INPUT_SCRIPT);
  delete (window as Partial<EventTarget>).addEventListener;
  delete (document as Partial<EventTarget>).addEventListener;
}

beforeEach(() => {
  document.body.innerHTML = '';
  runScript();
});

afterEach(() => {
  for (const remove of removeListeners) remove();
  removeListeners = [];
});

it('keeps the browser from sending a form itself (its fields would go into the address), but not a form with an action', () => {
  expect(submit(document.createElement('form'))).toBe(true);
  const withAction = document.createElement('form');
  withAction.action = '/elsewhere';
  expect(submit(withAction)).toBe(false);
});

it('hands over the last form sent before hydration once, and notes none after that', () => {
  const first = document.createElement('form');
  const second = document.createElement('form');
  submit(first);
  submit(second);
  expect(takeEarlySubmit()).toBe(second);
  expect(takeEarlySubmit()).toBeNull();
  // After hydration the app's handlers send forms; the script still cancels the browser's own sending.
  expect(submit(first)).toBe(true);
  expect(takeEarlySubmit()).toBeNull();
});

it('leaves alone, and does not hand over, a form whose own handler took it (React, hydrating or hydrated)', () => {
  const form = document.createElement('form');
  form.addEventListener('submit', (event) => event.preventDefault());
  expect(submit(form)).toBe(true);
  expect(takeEarlySubmit()).toBeNull();
});

it('hands over nothing when no form was sent, or when the one sent has left the page', () => {
  expect(takeEarlySubmit()).toBeNull();
  for (const remove of removeListeners) remove();
  runScript();
  const gone = document.createElement('form');
  submit(gone);
  gone.remove();
  expect(takeEarlySubmit()).toBeNull();
});
