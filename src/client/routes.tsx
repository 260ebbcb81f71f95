import type { ComponentType } from 'react';
import { LoginPage } from './routes/auth/login-page';
import { RegisterPage } from './routes/auth/register-page';
import { ForgotPasswordPage } from './routes/auth/forgot-password-page';
import { ResetPasswordPage } from './routes/auth/reset-password-page';
import { VerifyEmailPage } from './routes/auth/verify-email-page';
import { HomePage } from './routes/home-page';
import { NotFoundPage } from './routes/system/not-found-page';

export type LayoutName = 'auth' | 'main' | 'public';

/** Route metadata (SPEC §2): the root shell picks the layout, the guard and the title from here. */
export interface AppRoute {
  path: string;
  title: string;
  subtitle?: string;
  layout: LayoutName;
  requiresAuth: boolean;
  component: ComponentType;
}

export const routes: AppRoute[] = [
  { path: '/auth/login', title: 'Se connecter', layout: 'auth', requiresAuth: false, component: LoginPage },
  { path: '/auth/register', title: 'Inscription', layout: 'auth', requiresAuth: false, component: RegisterPage },
  { path: '/auth/password/forgot', title: 'Mot de passe oublié', layout: 'auth', requiresAuth: false, component: ForgotPasswordPage },
  { path: '/auth/password/reset', title: 'Créer un nouveau mot de passe', layout: 'auth', requiresAuth: false, component: ResetPasswordPage },
  { path: '/auth/verify_email', title: 'Activation votre compte', layout: 'auth', requiresAuth: false, component: VerifyEmailPage },
  { path: '/', title: "Vue d'ensemble", subtitle: 'Votre activité en un coup d’œil', layout: 'main', requiresAuth: true, component: HomePage },
  { path: '/404', title: 'Erreur', layout: 'public', requiresAuth: false, component: NotFoundPage },
];
