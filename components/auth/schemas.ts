import { z } from 'zod/mini';
import { contractName, contractString } from '@/components/common/form-rules';
import {
  validateEmail,
  validateEmailCode,
  validateNewUserPassword,
  validateUserPassword,
  validateUsername,
} from '@/lib/contract/validation';
import '@/lib/i18n/messages/auth';

/** Login form: the contract's username and password rules (docs/contract.md §8). */
export const loginSchema = z.object({
  username: contractName(validateUsername),
  password: contractString(validateUserPassword),
});
export type LoginForm = z.infer<typeof loginSchema>;

/** Register form: the username rules, a new password (8 characters at least) and a matching confirmation (its message is a catalogue key). */
export const registerSchema = z
  .object({ username: contractName(validateUsername), password: contractString(validateNewUserPassword), passwordConfirm: z.string() })
  .check(z.refine((form) => form.password === form.passwordConfirm, { message: 'register.mismatch', path: ['passwordConfirm'] }));
export type RegisterForm = z.infer<typeof registerSchema>;

/** Login with the bound email (§4.2: `{email, password}`). */
export const emailLoginSchema = z.object({
  email: contractString(validateEmail),
  password: contractString(validateUserPassword),
});
export type EmailLoginForm = z.infer<typeof emailLoginSchema>;

/**
 * The email flows' fields (sign-up, reset): address, the image captcha's answer, the mailed code and
 * a new password with its confirmation. The captcha answer belongs to the send step only (the
 * server spends it there), so the send step checks it (validateCaptchaAnswer), not the submit.
 */
export const emailCodeSchema = z
  .object({
    email: contractString(validateEmail),
    answer: z.string(),
    code: contractString(validateEmailCode),
    password: contractString(validateNewUserPassword),
    passwordConfirm: z.string(),
  })
  .check(z.refine((form) => form.password === form.passwordConfirm, { message: 'register.mismatch', path: ['passwordConfirm'] }));
export type EmailCodeForm = z.infer<typeof emailCodeSchema>;

/** The login form in each mode: the same fields, the unused identity left unchecked. */
export const loginFormSchemas = {
  username: z.extend(loginSchema, { email: z.string() }),
  email: z.extend(emailLoginSchema, { username: z.string() }),
};
export type LoginFormValues = z.infer<typeof loginFormSchemas.username>;
