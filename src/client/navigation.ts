import type { ComponentType, SVGProps } from 'react';
import { BoxIcon, CalendarIcon, ChartIcon, FileIcon, HomeIcon, SettingsIcon, UsersIcon, WalletIcon } from './components/icons';

export interface MenuEntry {
  href: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement> & { size?: number }>;
  /** Paths that also light this entry up (a document base lights "Documents"). */
  matches: string[];
}

/** SPEC §2 side menu, in SPEC order. */
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
  { href: '/settings', label: 'Paramètres', icon: SettingsIcon, matches: [] },
  { href: '/reports', label: 'Statistiques', icon: ChartIcon, matches: [] },
];

export function isActive(entry: MenuEntry, path: string): boolean {
  if (entry.href === '/') return path === '/';
  return [entry.href, ...entry.matches].some((base) => path === base || path.startsWith(`${base}/`));
}

/** SPEC §2 settings children, in SPEC order. */
export const SETTINGS_CHILDREN = [
  { slug: 'general', title: 'Système général' },
  { slug: 'organization', title: "Infos de l'entreprise" },
  { slug: 'email', title: "Envoi d'emails" },
  { slug: 'tags', title: 'Étiquettes' },
  { slug: 'currencies', title: 'Devises' },
  { slug: 'taxes', title: 'TVA' },
  { slug: 'units', title: 'Unités' },
  { slug: 'subscription', title: 'Gérer mon abonnement' },
  { slug: 'members', title: 'Mon équipe' },
  { slug: 'devices', title: 'Appareils' },
  { slug: 'api', title: 'API' },
  { slug: 'document', title: 'Apparence' },
  { slug: 'accounting', title: 'Comptabilité' },
  { slug: 'audit', title: 'Journal' },
  { slug: 'reminders', title: 'Relances' },
  { slug: 'jobs', title: 'Tâches planifiées' },
] as const;
