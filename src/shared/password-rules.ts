/** Kept apart from the Zod schemas so that a sign-in page can print it without downloading Zod. */
export const PASSWORD_MIN_LENGTH = 8;
