/** Texts of the auth screens. Keys in `zh` and `en` must match. */
export const auth = {
  zh: {},
  en: {},
} as const;
