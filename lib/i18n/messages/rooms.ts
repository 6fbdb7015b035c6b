/** Texts of the rooms screens. Keys in `zh` and `en` must match. */
export const rooms = {
  zh: {},
  en: {},
} as const;
