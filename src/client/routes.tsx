import type { ComponentType } from 'react';
import { EDITOR_TITLES, LIST_BASES } from '../shared/status';
import type { DocumentType, ListType } from '../shared/schemas/document';
import type { Procedure } from './lib/procedure-rules';
import { SETTINGS_CHILDREN } from './navigation';
import { LIST_TABLE } from '../shared/document-types';
import { lazyPage as lazySignInPage, type LazyPage } from './lib/lazy-page';

// Every page is its own chunk, fetched when its route is first shown (or ahead: on hover, when idle), so the
// login page downloads only what it draws and the editor, the designer, the charts and the agenda only where used.

/** A page that may check values with the shared Zod schemas as it draws: Zod is set up (French, no eval) before it shows. */
function lazyPage<M, P extends object = object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): LazyPage<P> {
  return lazySignInPage(() => Promise.all([import('./lib/zod-setup'), load()]).then(([, module]) => module), pick);
}

const page = {
  login: lazySignInPage(
    () => import('./routes/auth/login-page'),
    (m) => m.LoginPage,
  ),
  register: lazySignInPage(
    () => import('./routes/auth/register-page'),
    (m) => m.RegisterPage,
  ),
  forgotPassword: lazySignInPage(
    () => import('./routes/auth/forgot-password-page'),
    (m) => m.ForgotPasswordPage,
  ),
  resetPassword: lazySignInPage(
    () => import('./routes/auth/reset-password-page'),
    (m) => m.ResetPasswordPage,
  ),
  verifyEmail: lazySignInPage(
    () => import('./routes/auth/verify-email-page'),
    (m) => m.VerifyEmailPage,
  ),
  invitation: lazyPage(
    () => import('./routes/auth/invitation-page'),
    (m) => m.InvitationPage,
  ),
  home: lazyPage(
    () => import('./routes/home-page'),
    (m) => m.HomePage,
  ),
  notFound: lazyPage(
    () => import('./routes/system/not-found-page'),
    (m) => m.NotFoundPage,
  ),
  upcoming: lazyPage(
    () => import('./routes/upcoming-page'),
    (m) => m.UpcomingPage,
  ),
  pricing: lazyPage(
    () => import('./routes/subscription/pricing-page'),
    (m) => m.PricingPage,
  ),
  buy: lazyPage(
    () => import('./routes/subscription/buy-page'),
    (m) => m.BuyPage,
  ),
  settingsIndex: lazyPage(
    () => import('./routes/settings/settings-frame'),
    (m) => m.SettingsIndex,
  ),
  settingsUpcoming: lazyPage(
    () => import('./routes/settings/settings-upcoming-page'),
    (m) => m.SettingsUpcomingPage,
  ),
  customers: lazyPage(
    () => import('./routes/customers/customers-page'),
    (m) => m.CustomersPage,
  ),
  customerDetail: lazyPage(
    () => import('./routes/customers/customer-detail-page'),
    (m) => m.CustomerDetailPage,
  ),
  items: lazyPage(
    () => import('./routes/items/items-page'),
    (m) => m.ItemsPage,
  ),
  expenses: lazyPage(
    () => import('./routes/expenses/expenses-page'),
    (m) => m.ExpensesPage,
  ),
  recurringExpenses: lazyPage(
    () => import('./routes/expenses/recurring-expenses-page'),
    (m) => m.RecurringExpensesPage,
  ),
  recurringEditor: lazyPage(
    () => import('./routes/recurring/recurring-editor-page'),
    (m) => m.RecurringEditorPage,
  ),
  recurringList: lazyPage(
    () => import('./routes/recurring/recurring-list-page'),
    (m) => m.RecurringListPage,
  ),
  appointments: lazyPage(
    () => import('./routes/appointments/appointments-page'),
    (m) => m.AppointmentsPage,
  ),
  reports: lazyPage(
    () => import('./routes/reports/reports-page'),
    (m) => m.default,
  ),
  documentList: lazyPage(
    () => import('./routes/documents/documents-page'),
    (m) => m.DocumentsPage,
  ),
  documentEditor: lazyPage(
    () => import('./routes/documents/editor/document-editor-page'),
    (m) => m.DocumentEditorPage,
  ),
  documentView: lazyPage(
    () => import('./routes/documents/document-view-page'),
    (m) => m.DocumentViewPage,
  ),
  payments: lazyPage(
    () => import('./routes/documents/payments-page'),
    (m) => m.PaymentsPage,
  ),
  bank: lazyPage(
    () => import('./routes/bank/bank-page'),
    (m) => m.BankPage,
  ),
  einvoicing: lazyPage(
    () => import('./routes/einvoicing/einvoicing-page'),
    (m) => m.EinvoicingPage,
  ),
  preview: lazyPage(
    () => import('./routes/preview/preview-page'),
    (m) => m.PreviewPage,
  ),
  share: lazyPage(
    () => import('./routes/share/share-page'),
    (m) => m.SharePage,
  ),
};

const SETTINGS_PAGES: Partial<Record<(typeof SETTINGS_CHILDREN)[number]['slug'], LazyPage>> = {
  general: lazyPage(
    () => import('./routes/settings/general-settings-page'),
    (m) => m.GeneralSettingsPage,
  ),
  organization: lazyPage(
    () => import('./routes/settings/organization-settings-page'),
    (m) => m.OrganizationSettingsPage,
  ),
  email: lazyPage(
    () => import('./routes/settings/email-settings-page'),
    (m) => m.EmailSettingsPage,
  ),
  einvoicing: lazyPage(
    () => import('./routes/settings/einvoicing/einvoicing-settings-page'),
    (m) => m.EinvoicingSettingsPage,
  ),
  'online-payment': lazyPage(
    () => import('./routes/settings/online-payment-settings-page'),
    (m) => m.OnlinePaymentSettingsPage,
  ),
  bank: lazyPage(
    () => import('./routes/settings/bank-settings-page'),
    (m) => m.BankSettingsPage,
  ),
  currencies: lazyPage(
    () => import('./routes/settings/currency-settings-page'),
    (m) => m.CurrencySettingsPage,
  ),
  taxes: lazyPage(
    () => import('./routes/settings/tax-settings-page'),
    (m) => m.TaxSettingsPage,
  ),
  units: lazyPage(
    () => import('./routes/settings/unit-settings-page'),
    (m) => m.UnitSettingsPage,
  ),
  tags: lazyPage(
    () => import('./routes/settings/tag-settings-page'),
    (m) => m.TagSettingsPage,
  ),
  document: lazyPage(
    () => import('./routes/settings/document-settings/document-settings-page'),
    (m) => m.DocumentSettingsPage,
  ),
  accounting: lazyPage(
    () => import('./routes/settings/accounting-settings-page'),
    (m) => m.AccountingSettingsPage,
  ),
  audit: lazyPage(
    () => import('./routes/settings/audit-settings-page'),
    (m) => m.AuditSettingsPage,
  ),
  reminders: lazyPage(
    () => import('./routes/settings/reminder-settings-page'),
    (m) => m.ReminderSettingsPage,
  ),
  jobs: lazyPage(
    () => import('./routes/settings/jobs-settings-page'),
    (m) => m.JobsSettingsPage,
  ),
  members: lazyPage(
    () => import('./routes/settings/members-settings-page'),
    (m) => m.MembersSettingsPage,
  ),
  devices: lazyPage(
    () => import('./routes/settings/devices-settings-page'),
    (m) => m.DevicesSettingsPage,
  ),
  subscription: lazyPage(
    () => import('./routes/settings/subscription-settings-page'),
    (m) => m.SubscriptionSettingsPage,
  ),
  api: lazyPage(
    () => import('./routes/settings/api/api-settings-page'),
    (m) => m.ApiSettingsPage,
  ),
};

/** A lazy page given fixed props by its route (a document type, an upcoming feature's name). */
function pageWith<P extends object>(lazy: LazyPage<P>, props: P): LazyPage {
  // A component made once per route when this table loads, never during a render
  function RoutePage() {
    return <lazy.Component {...props} />;
  }
  return {
    Component: RoutePage,
    preload: () => lazy.preload().then((component) => component && RoutePage),
    loaded: () => (lazy.loaded?.() ? RoutePage : undefined),
    subscribe: lazy.subscribe,
  };
}
const upcoming = (feature: string) => pageWith(page.upcoming, { feature });

/** 'bare': the page draws everything itself (the public share page, also printed to PDF). */
export type LayoutName = 'auth' | 'main' | 'public' | 'bare';

/** Route metadata: the root shell picks the layout, the guard and the title from here. */
export interface AppRoute {
  path: string;
  title: string;
  subtitle?: string;
  layout: LayoutName;
  requiresAuth: boolean;
  page?: LazyPage;
  redirect?: string;
  /**
   * The page calls the server only through plain REST doors (lib/plain-call.ts): it draws and works without the data
   * layer's chunk (tRPC client, TanStack Query, superjson), which stays on the server until another page needs it.
   */
  plainFetch?: true;
  /** The procedure the page is for (its rule, lib/procedure-rules.ts): a role that may not call it gets « Vous n’avez pas accès à cette page ». */
  can?: Procedure;
}

const auth = (path: string, title: string, lazy: LazyPage): AppRoute => ({
  path,
  title,
  layout: 'auth',
  requiresAuth: false,
  page: lazy,
});
const main = (path: string, title: string, lazy: LazyPage, subtitle?: string, can?: Procedure): AppRoute => ({
  path,
  title,
  subtitle,
  layout: 'main',
  requiresAuth: true,
  page: lazy,
  can,
});

function documentRoutes(type: ListType): AppRoute[] {
  const base = LIST_BASES[type];
  const list = LIST_TABLE[type].listTitle;
  // A recurring invoice is a model: one editor for all its tabs, and its payments are those of the invoices it made.
  const recurring = type === 'recurring';
  const props = { type: type as DocumentType };
  const editor = recurring ? page.recurringEditor : pageWith(page.documentEditor, props);
  const view = recurring ? page.recurringEditor : pageWith(page.documentView, props);
  // A new document is for the roles that create; an existing one opens read-only for the others.
  const create = recurring ? 'recurringInvoices.create' : 'documents.create';
  return [
    main(`${base}/new/add`, EDITOR_TITLES[type], editor, list, create),
    main(`${base}/new/view`, 'Aperçu', view, list, create),
    main(`${base}/:id/edit`, 'Modifier', editor, list),
    main(`${base}/:id/view`, 'Aperçu', view, list),
    main(`${base}/:id/payments`, 'Paiements', recurring ? upcoming('Le suivi des paiements') : page.payments, list),
    main(base, list, recurring ? page.recurringList : pageWith(page.documentList, props)),
  ];
}

export const routes: AppRoute[] = [
  { ...auth('/auth/login', 'Se connecter', page.login), plainFetch: true },
  auth('/auth/register', 'Inscription', page.register),
  auth('/auth/password/forgot', 'Mot de passe oublié', page.forgotPassword),
  auth('/auth/password/reset', 'Créer un nouveau mot de passe', page.resetPassword),
  auth('/auth/verify_email', 'Activation votre compte', page.verifyEmail),
  auth('/invitation', 'Rejoindre une équipe', page.invitation),

  main('/', "Vue d'ensemble", page.home, 'Votre activité en un coup d’œil'),
  main('/pricing', 'Votre abonnement', page.pricing),
  main('/buy', 'Paiement', page.buy),
  main('/customers', 'Clients', page.customers),
  main('/customers/:id', 'Clients', page.customerDetail),
  main('/items', 'Articles', page.items),
  main('/expenses/recurring', 'Dépenses répétitifs', page.recurringExpenses),
  main('/expenses', 'Dépenses', page.expenses),
  main('/appointments', 'Rendez-vous', page.appointments),
  main('/bank', 'Rapprochement bancaire', page.bank, 'Vos relevés, rapprochés de vos factures et dépenses', 'bankTransactions.list'),
  main(
    '/einvoicing',
    'Facturation électronique',
    page.einvoicing,
    'Vos déclarations d’e-reporting à la plateforme agréée',
    'ereporting.list',
  ),
  main('/reports', 'Statistiques', page.reports),
  main('/settings', 'Paramètres', page.settingsIndex),
  ...SETTINGS_CHILDREN.map((child) =>
    main(
      `/settings/${child.slug}`,
      child.title,
      SETTINGS_PAGES[child.slug] ?? pageWith(page.settingsUpcoming, { title: child.title }),
      'Paramètres',
      child.can,
    ),
  ),
  { path: '/documents', title: 'Documents', layout: 'main', requiresAuth: true, redirect: '/invoices' },
  ...(Object.keys(LIST_BASES) as ListType[]).flatMap(documentRoutes),

  { path: '/preview', title: 'Aperçu', layout: 'public', requiresAuth: false, page: page.preview },
  { path: '/share/:uuid', title: 'Document', layout: 'bare', requiresAuth: false, page: page.share },
  { path: '/404', title: 'Erreur', layout: 'public', requiresAuth: false, page: page.notFound },
];
