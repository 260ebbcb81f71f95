import type { LifecycleStatus } from '../../shared/einvoice-lifecycle';

/**
 * What Facturier needs of an approved platform (plateforme agréée): transmit an issued invoice, read back
 * its lifecycle statuses, and find in the directory (annuaire) where a customer receives its invoices. The README's
 * "Plateforme agréée" section says how a platform's API fills it in; FolderPlatform (folder-platform.ts) is the one
 * implementation testable here.
 */
export interface PlatformConnector {
  /** Names the platform in the history ("dossier", or the platform's name). */
  readonly name: string;
  /**
   * Transmits the invoice; answers the platform's reference for it and the files as transmitted (their SHA-256, for
   * the audit log). Sending the same document again answers the same reference.
   */
  send(account: PlatformAccount, invoice: OutgoingInvoice): Promise<{ reference: string; files: SentFile[] }>;
  /** Every status update the platform knows for that reference, oldest first; each with the platform's own id. */
  status(account: PlatformAccount, reference: string): Promise<PlatformUpdate[]>;
  /** The directory's routing for a SIREN, or null when that business is not listed. */
  lookupDirectory(account: PlatformAccount, siren: string): Promise<DirectoryEntry | null>;
}

/** Whose invoices: a platform account per organisation (its credentials, for an API, are looked up from this). */
export interface PlatformAccount {
  organizationId: number;
}

export interface OutgoingInvoice {
  /** The Factur-X PDF as archived, byte for byte, and the name it travels under. */
  pdf: { name: string; bytes: Buffer };
  /** The EN 16931 CII XML (also embedded in the Factur-X), or null when none is available. */
  xml: string | null;
  envelope: InvoiceEnvelope;
}

/** What travels beside the files: enough for a platform to route and check the invoice without opening them. */
export interface InvoiceEnvelope {
  version: 1;
  document: { uuid: string; type: 'invoice' | 'credit'; type_code: number; number: string; date: string };
  sender: { siren: string; name: string; vat_number: string };
  recipient: { siren: string; name: string; vat_number: string };
  totals: { net: number; tax: number; total: number; currency: string };
  format: 'factur-x';
  xml_attached: boolean;
  /** Filled in by the connector once it knows the files' names: their SHA-256 and sizes. */
  files: SentFile[];
  created_at: string;
}

export interface SentFile {
  name: string;
  role: 'invoice' | 'xml';
  sha256: string;
  size: number;
}

/** One lifecycle update from the platform. */
export interface PlatformUpdate {
  /** The platform's id of this update: the same update polled twice is recorded once. */
  id: string;
  reference: string;
  status: LifecycleStatus;
  /** YYYY-MM-DD. */
  date: string;
  reason: string;
}

export interface DirectoryEntry {
  siren: string;
  name: string;
  /** The platform that receives this business's invoices. */
  platform: string;
  /** The routing address (identifiant d'adressage) in the directory. */
  routing_id: string;
}

/** The EN 16931 XML of an issued document (src/server/services/einvoice-xml.ts buildEinvoiceXml, wired in app.ts). */
export type XmlProvider = (organizationId: number, documentId: number) => Promise<string>;
