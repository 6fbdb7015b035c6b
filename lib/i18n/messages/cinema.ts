/** Texts of the cinema screens. Keys in `zh` and `en` must match. */
export const cinema = {
  zh: {},
  en: {},
} as const;
