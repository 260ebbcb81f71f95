// The sign-in pages' checks, downloaded with Zod when the user starts typing (or submits), not with the page: the login
// page then draws with far less JavaScript. The schemas are the server's own.
import '../../lib/zod-setup';
import { forgotPasswordInputSchema, loginInputSchema, newPasswordSchema, registerInputSchema } from '../../../shared/schemas/auth';
import { fieldErrors } from '../../lib/form';

export const validateLogin = (values: unknown) => fieldErrors(loginInputSchema, values);
export const validateRegister = (values: unknown) => fieldErrors(registerInputSchema, values);
export const validateForgotPassword = (values: unknown) => fieldErrors(forgotPasswordInputSchema, values);

/** The first problem with a new password, if any. */
export function newPasswordError(password: string): string | undefined {
  const checked = newPasswordSchema.safeParse(password);
  return checked.success ? undefined : checked.error.issues[0]?.message;
}
