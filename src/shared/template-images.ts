import type { DocumentTemplate } from './schemas/template';

/**
 * The only images a template may show: a logo uploaded to this server (Infos de l’entreprise), named by a random
 * uuid. Any other address would make the PDF printer, and every visitor of a share page, fetch it.
 */
export const UPLOADED_LOGO_URL = /^\/uploads\/logos\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp)$/;

/** What a logo element shows: its own uploaded image, else the organisation's logo (an older foreign URL is ignored). */
export const logoSource = (url: string, organizationLogo: string): string => (UPLOADED_LOGO_URL.test(url) ? url : organizationLogo);

/** One French refusal per logo element whose image is neither empty (the organisation's logo) nor an upload. */
export function foreignTemplateImages(template: DocumentTemplate): string[] {
  const rows = [...template.header, ...template.elements_following_pages, ...template.footer];
  const foreign = rows
    .flatMap((row) => row.columns.flatMap((column) => column.elements))
    .filter((e) => e.type === 'logo' && e.url !== '' && !UPLOADED_LOGO_URL.test(e.url));
  return foreign.length === 0
    ? []
    : [
        'Logo du modèle : seule une image envoyée dans Infos de l’entreprise est acceptée ; laissez l’adresse vide pour le logo de l’entreprise',
      ];
}
