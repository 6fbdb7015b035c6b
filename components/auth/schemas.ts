import { z } from 'zod';
import { contractString } from '@/components/common/form-rules';
import { validateUserPassword, validateUsername } from '@/lib/contract/validation';
import '@/lib/i18n/messages/auth';

/** Login form: the contract's username and password rules (server-contract.md §8). */
export const loginSchema = z.object({
  username: contractString(validateUsername),
  password: contractString(validateUserPassword),
});
export type LoginForm = z.infer<typeof loginSchema>;

/** Register form: login rules plus a matching confirmation (its message is a catalogue key). */
export const registerSchema = loginSchema
  .extend({ passwordConfirm: z.string() })
  .refine((form) => form.password === form.passwordConfirm, { message: 'register.mismatch', path: ['passwordConfirm'] });
export type RegisterForm = z.infer<typeof registerSchema>;
