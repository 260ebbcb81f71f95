import type { Procedure } from './lib/procedure-rules';
import type { ComponentType, SVGProps } from 'react';
import { BoxIcon, CalendarIcon, ChartIcon, FileIcon, HomeIcon, SendIcon, SettingsIcon, UsersIcon, WalletIcon } from './components/icons';

export interface MenuEntry {
  href: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement> & { size?: number }>;
  /** Paths that also light this entry up (a document base lights "Documents"). */
  matches: string[];
}

/** The side menu's widths, open and folded to a rail (also the first script's skeleton of the shell). */
export const DRAWER_WIDTH = 190;
export const RAIL_WIDTH = 56;

/** Side menu, in order. */
export const MENU: MenuEntry[] = [
  { href: '/', label: "Vue d'ensemble", icon: HomeIcon, matches: [] },
  {
    href: '/documents',
    label: 'Documents',
    icon: FileIcon,
    matches: ['/invoices', '/estimates', '/proformas', '/orders', '/deliveries', '/credits', '/recurring'],
  },
  { href: '/items', label: 'Articles', icon: BoxIcon, matches: [] },
  { href: '/customers', label: 'Clients', icon: UsersIcon, matches: [] },
  { href: '/expenses', label: 'Dépenses', icon: WalletIcon, matches: [] },
  { href: '/appointments', label: 'Rendez-vous', icon: CalendarIcon, matches: [] },
  // The reform's e-reporting and what went through the platform.
  { href: '/einvoicing', label: 'Facturation électronique', icon: SendIcon, matches: [] },
  { href: '/settings', label: 'Paramètres', icon: SettingsIcon, matches: [] },
  { href: '/reports', label: 'Statistiques', icon: ChartIcon, matches: [] },
];

export function isActive(entry: MenuEntry, path: string): boolean {
  if (entry.href === '/') return path === '/';
  return [entry.href, ...entry.matches].some((base) => path === base || path.startsWith(`${base}/`));
}

/**
 * Settings children, in order. `can`: the procedure the page is for (its rule, lib/procedure-rules.ts) — a role
 * that may not call it neither sees the entry nor uses the page. Settings forms are the managers';
 * the team, the journal, the FEC and one's own devices are for every role.
 */
export const SETTINGS_CHILDREN = [
  { slug: 'general', title: 'Système général', can: 'settings.update' },
  { slug: 'organization', title: "Infos de l'entreprise", can: 'organization.update' },
  { slug: 'email', title: "Envoi d'emails", can: 'emailSettings.update' },
  { slug: 'einvoicing', title: 'Facturation électronique', can: 'einvoicing.saveSettings' },
  { slug: 'online-payment', title: 'Paiement en ligne', can: 'onlinePayment.saveSettings' },
  { slug: 'tags', title: 'Étiquettes', can: 'tags.create' },
  { slug: 'currencies', title: 'Devises', can: 'currencies.create' },
  { slug: 'bank', title: 'Comptes bancaires', can: 'bankAccounts.list' },
  { slug: 'taxes', title: 'TVA', can: 'taxes.create' },
  { slug: 'units', title: 'Unités', can: 'units.create' },
  // Placeholders until billing and API keys have procedures of their own: the managers' pages meanwhile.
  { slug: 'subscription', title: 'Gérer mon abonnement', can: 'organization.update' },
  { slug: 'members', title: 'Mon équipe', can: 'members.list' },
  { slug: 'devices', title: 'Appareils', can: 'devices.list' },
  { slug: 'api', title: 'API', can: 'apiKeys.list' },
  { slug: 'document', title: 'Apparence', can: 'settings.update' },
  { slug: 'accounting', title: 'Comptabilité', can: 'exports.fec' },
  { slug: 'audit', title: 'Journal', can: 'audit.list' },
  { slug: 'reminders', title: 'Relances', can: 'reminders.saveSettings' },
  { slug: 'jobs', title: 'Tâches planifiées', can: 'reminders.jobs' },
] as const satisfies readonly { slug: string; title: string; can: Procedure }[];
