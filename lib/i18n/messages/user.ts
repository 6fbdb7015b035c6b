/** Texts of the user screens. Keys in `zh` and `en` must match. */
export const user = {
  zh: {},
  en: {},
} as const;
