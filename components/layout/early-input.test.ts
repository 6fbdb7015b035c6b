/** The inline script's forms before hydration, as the page meets them (./early-input.ts). */
import { EARLY_INPUT_SCRIPT, takeEarlySubmit } from './early-input';

/** Dispatches a submit as the browser does; true when the browser's own sending was cancelled. */
function submit(form: HTMLFormElement): boolean {
  if (!form.isConnected) document.body.appendChild(form);
  const event = new Event('submit', { bubbles: true, cancelable: true });
  form.dispatchEvent(event);
  return event.defaultPrevented;
}

beforeEach(() => {
  document.body.innerHTML = '';
  window.eval(EARLY_INPUT_SCRIPT);
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

it('hands over nothing when no form was sent, or when the one sent has left the page', () => {
  expect(takeEarlySubmit()).toBeNull();
  window.eval(EARLY_INPUT_SCRIPT);
  const gone = document.createElement('form');
  submit(gone);
  gone.remove();
  expect(takeEarlySubmit()).toBeNull();
});
