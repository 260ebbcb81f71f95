/**
 * The default expense categories of a French small business, each booked to an account of the plan comptable
 * général (classe 6). Every organisation starts from this list and may rename, re-map or add to it (a class 2
 * account for fixed assets).
 */
export interface ExpenseCategoryDefault {
  code: string;
  label: string;
  account: string;
}

export const DEFAULT_EXPENSE_CATEGORIES: readonly ExpenseCategoryDefault[] = [
  { code: 'achats', label: 'Achats de marchandises', account: '607000' },
  { code: 'sous_traitance', label: 'Sous-traitance', account: '611000' },
  { code: 'fournitures', label: 'Fournitures et petit équipement', account: '606300' },
  { code: 'fournitures_bureau', label: 'Fournitures de bureau', account: '606400' },
  { code: 'energie', label: 'Eau, électricité, gaz', account: '606100' },
  { code: 'loyer', label: 'Loyer et charges locatives', account: '613200' },
  { code: 'location_materiel', label: 'Location de matériel', account: '613500' },
  { code: 'entretien', label: 'Entretien et réparations', account: '615000' },
  { code: 'assurances', label: 'Assurances', account: '616000' },
  { code: 'formation', label: 'Formation et documentation', account: '618000' },
  { code: 'honoraires', label: 'Honoraires (expert-comptable, avocat)', account: '622600' },
  { code: 'publicite', label: 'Publicité et communication', account: '623000' },
  { code: 'transport', label: 'Transport de biens', account: '624000' },
  { code: 'deplacements', label: 'Déplacements et hébergement', account: '625100' },
  { code: 'repas', label: 'Repas et réceptions', account: '625700' },
  { code: 'poste', label: 'Frais postaux', account: '626100' },
  { code: 'telecom', label: 'Téléphone et internet', account: '626200' },
  { code: 'banque', label: 'Frais bancaires', account: '627000' },
  { code: 'cotisations', label: 'Cotisations professionnelles', account: '628100' },
  { code: 'impots', label: 'Impôts et taxes', account: '635000' },
  { code: 'logiciels', label: 'Logiciels et abonnements', account: '651000' },
  { code: 'autres', label: 'Autres charges', account: '658000' },
];

/** A free-text category typed in a form or an import becomes a code: lower case, accents and spaces folded. */
export function categoryCode(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
}
