import { type ComponentType, lazy, Suspense } from 'react';
import { EDITOR_TITLES, LIST_BASES } from '../shared/status';
import type { ListType } from '../shared/schemas/document';
import { SETTINGS_CHILDREN } from './navigation';
import { LoginPage } from './routes/auth/login-page';
import { RegisterPage } from './routes/auth/register-page';
import { ForgotPasswordPage } from './routes/auth/forgot-password-page';
import { ResetPasswordPage } from './routes/auth/reset-password-page';
import { VerifyEmailPage } from './routes/auth/verify-email-page';
import { HomePage } from './routes/home-page';
import { NotFoundPage } from './routes/system/not-found-page';
import { upcoming, UpcomingPage } from './routes/upcoming-page';
import { PricingPage } from './routes/subscription/pricing-page';
import { BuyPage } from './routes/subscription/buy-page';
import { SubscriptionSettingsPage } from './routes/settings/subscription-settings-page';
import { CustomersPage } from './routes/customers/customers-page';
import { CustomerDetailPage } from './routes/customers/customer-detail-page';
import { ItemsPage } from './routes/items/items-page';
import { ExpensesPage } from './routes/expenses/expenses-page';
import { RecurringExpensesPage } from './routes/expenses/recurring-expenses-page';
import { RecurringEditorPage } from './routes/recurring/recurring-editor-page';
import { RecurringListPage } from './routes/recurring/recurring-list-page';
import { AppointmentsPage } from './routes/appointments/appointments-page';
import { GeneralSettingsPage } from './routes/settings/general-settings-page';
import { OrganizationSettingsPage } from './routes/settings/organization-settings-page';
import { CurrencySettingsPage } from './routes/settings/currency-settings-page';
import { TaxSettingsPage } from './routes/settings/tax-settings-page';
import { UnitSettingsPage } from './routes/settings/unit-settings-page';
import { EmailSettingsPage } from './routes/settings/email-settings-page';
import { TagSettingsPage } from './routes/settings/tag-settings-page';
import { DocumentSettingsPage } from './routes/settings/document-settings/document-settings-page';
import { SettingsFrame } from './routes/settings/settings-frame';
import { AuditSettingsPage } from './routes/settings/audit-settings-page';
import { AccountingSettingsPage } from './routes/settings/accounting-settings-page';
import { ReminderSettingsPage } from './routes/settings/reminder-settings-page';
import { JobsSettingsPage } from './routes/settings/jobs-settings-page';
import { MembersSettingsPage } from './routes/settings/members-settings-page';
import { DevicesSettingsPage } from './routes/settings/devices-settings-page';
import { InvitationPage } from './routes/auth/invitation-page';
import { LIST_TITLES } from './routes/documents/document-meta';
import { DocumentEditorRoute, DocumentListRoute, DocumentViewRoute, PaymentsPage } from './routes/documents/document-pages';
import { PreviewPage } from './routes/preview/preview-page';
import { SharePage } from './routes/share/share-page';
import { Spinner } from './components/ui/spinner';

// Statistiques and their charts come in their own chunk, fetched when /reports is opened: the login page never pays for them.
const LazyReportsPage = lazy(() => import('./routes/reports/reports-page'));
function ReportsPage() {
  return (
    <Suspense fallback={<Spinner label="Chargement des statistiques" />}>
      <LazyReportsPage />
    </Suspense>
  );
}

/** 'bare': the page draws everything itself (the public share page, also printed to PDF). */
export type LayoutName = 'auth' | 'main' | 'public' | 'bare';

/** Route metadata (SPEC §2): the root shell picks the layout, the guard and the title from here. */
export interface AppRoute {
  path: string;
  title: string;
  subtitle?: string;
  layout: LayoutName;
  requiresAuth: boolean;
  component?: ComponentType;
  redirect?: string;
}

const auth = (path: string, title: string, component: ComponentType): AppRoute => ({
  path,
  title,
  layout: 'auth',
  requiresAuth: false,
  component,
});
const main = (path: string, title: string, component: ComponentType, subtitle?: string): AppRoute => ({
  path,
  title,
  subtitle,
  layout: 'main',
  requiresAuth: true,
  component,
});

const SETTINGS_PAGES: Partial<Record<(typeof SETTINGS_CHILDREN)[number]['slug'], ComponentType>> = {
  general: GeneralSettingsPage,
  organization: OrganizationSettingsPage,
  email: EmailSettingsPage,
  currencies: CurrencySettingsPage,
  taxes: TaxSettingsPage,
  units: UnitSettingsPage,
  tags: TagSettingsPage,
  document: DocumentSettingsPage,
  accounting: AccountingSettingsPage,
  audit: AuditSettingsPage,
  reminders: ReminderSettingsPage,
  jobs: JobsSettingsPage,
  members: MembersSettingsPage,
  devices: DevicesSettingsPage,
  subscription: SubscriptionSettingsPage,
};
const settingsUpcoming = (title: string) =>
  // A component made once per route when this table loads, never during a render
  function SettingsUpcoming() {
    return (
      <SettingsFrame>
        <UpcomingPage feature={`La page « ${title} »`} />
      </SettingsFrame>
    );
  };

function documentRoutes(type: ListType): AppRoute[] {
  const base = LIST_BASES[type];
  const list = LIST_TITLES[type];
  return [
    main(`${base}/new/add`, EDITOR_TITLES[type], type === 'recurring' ? RecurringEditorPage : DocumentEditorRoute, list),
    main(`${base}/new/view`, 'Aperçu', type === 'recurring' ? RecurringEditorPage : DocumentViewRoute, list),
    main(`${base}/:id/edit`, 'Modifier', type === 'recurring' ? RecurringEditorPage : DocumentEditorRoute, list),
    main(`${base}/:id/view`, 'Aperçu', type === 'recurring' ? RecurringEditorPage : DocumentViewRoute, list),
    // A recurring invoice is a model: its payments are those of the invoices it made.
    main(`${base}/:id/payments`, 'Paiements', type === 'recurring' ? upcoming('Le suivi des paiements') : PaymentsPage, list),
    main(base, list, type === 'recurring' ? RecurringListPage : DocumentListRoute),
  ];
}

export const routes: AppRoute[] = [
  auth('/auth/login', 'Se connecter', LoginPage),
  auth('/auth/register', 'Inscription', RegisterPage),
  auth('/auth/password/forgot', 'Mot de passe oublié', ForgotPasswordPage),
  auth('/auth/password/reset', 'Créer un nouveau mot de passe', ResetPasswordPage),
  auth('/auth/verify_email', 'Activation votre compte', VerifyEmailPage),
  auth('/invitation', 'Rejoindre une équipe', InvitationPage),

  main('/', "Vue d'ensemble", HomePage, 'Votre activité en un coup d’œil'),
  main('/pricing', 'Votre abonnement', PricingPage),
  main('/buy', 'Paiement', BuyPage),
  main('/customers', 'Clients', CustomersPage),
  main('/customers/:id', 'Clients', CustomerDetailPage),
  main('/items', 'Articles', ItemsPage),
  main('/expenses/recurring', 'Dépenses répétitifs', RecurringExpensesPage),
  main('/expenses', 'Dépenses', ExpensesPage),
  main('/appointments', 'Rendez-vous', AppointmentsPage),
  main('/reports', 'Statistiques', ReportsPage),
  { path: '/settings', title: 'Paramètres', layout: 'main', requiresAuth: true, redirect: '/settings/general' },
  ...SETTINGS_CHILDREN.map((child) =>
    main(`/settings/${child.slug}`, child.title, SETTINGS_PAGES[child.slug] ?? settingsUpcoming(child.title), 'Paramètres'),
  ),
  { path: '/documents', title: 'Documents', layout: 'main', requiresAuth: true, redirect: '/invoices' },
  ...(Object.keys(LIST_BASES) as ListType[]).flatMap(documentRoutes),

  { path: '/preview', title: 'Aperçu', layout: 'public', requiresAuth: false, component: PreviewPage },
  { path: '/share/:uuid', title: 'Document', layout: 'bare', requiresAuth: false, component: SharePage },
  { path: '/404', title: 'Erreur', layout: 'public', requiresAuth: false, component: NotFoundPage },
];
