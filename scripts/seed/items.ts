// The catalogue of a communication, publishing and events agency: services and goods at the four French VAT rates
// (CGI art. 278 to 281 nonies: 20 % normal; 10 % catering, lodging, passenger transport; 5,5 % books, food,
// shows; 2,1 % press publications and the first performances of a new show).
import type { ApiClient } from '../api-client';
import type { Random } from './random';
import { defined } from '../../src/shared/defined';

export type Unit = 'h' | 'jour' | 'forfait' | 'u' | 'kg' | 'm²';

export interface SeedItem {
  id: number;
  code: string;
  name: string;
  unit: Unit;
  unit_price: number;
  kind: 'goods' | 'service';
  rate: number;
  /** The theme of documents this item turns up in. */
  theme: Theme;
}

export type Theme = 'studio' | 'web' | 'print' | 'event' | 'publishing';

type Entry = readonly [code: string, name: string, unit: Unit, price: number, kind: 'goods' | 'service', rate: number, theme: Theme];

const CATALOGUE: readonly Entry[] = [
  ['CONS-J', 'Conseil en stratégie de communication', 'jour', 650, 'service', 20, 'studio'],
  ['DA-J', 'Direction artistique', 'jour', 580, 'service', 20, 'studio'],
  ['GRAPH-H', 'Création graphique', 'h', 65, 'service', 20, 'studio'],
  ['LOGO', 'Création de logo et charte graphique', 'forfait', 1800, 'service', 20, 'studio'],
  ['RED-H', 'Rédaction de contenus', 'h', 55, 'service', 20, 'studio'],
  ['PHOTO-J', 'Reportage photo', 'jour', 750, 'service', 20, 'studio'],
  ['VIDEO', 'Film institutionnel (tournage et montage)', 'forfait', 4200, 'service', 20, 'studio'],
  ['CM-M', 'Animation des réseaux sociaux (mois)', 'forfait', 850, 'service', 20, 'studio'],
  ['FORM-J', 'Formation réseaux sociaux', 'jour', 900, 'service', 20, 'studio'],
  ['TRAD-H', 'Traduction anglais', 'h', 48, 'service', 20, 'studio'],
  ['PAO-H', 'Mise en page PAO', 'h', 50, 'service', 20, 'studio'],
  ['ANNONCE', 'Insertion publicitaire pleine page', 'u', 1800, 'service', 20, 'publishing'],
  ['SITE-V', 'Site vitrine (5 pages)', 'forfait', 3200, 'service', 20, 'web'],
  ['SITE-E', 'Boutique en ligne', 'forfait', 6800, 'service', 20, 'web'],
  ['DEV-H', 'Développement web', 'h', 75, 'service', 20, 'web'],
  ['UX-J', 'Atelier UX et maquettes', 'jour', 700, 'service', 20, 'web'],
  ['SEO', 'Audit SEO', 'forfait', 900, 'service', 20, 'web'],
  ['MAINT', 'Maintenance du site (mois)', 'forfait', 120, 'service', 20, 'web'],
  ['HEBERG', 'Hébergement et nom de domaine (an)', 'forfait', 240, 'service', 20, 'web'],
  ['SUPPORT-H', 'Assistance technique', 'h', 60, 'service', 20, 'web'],
  ['IMPR-PREP', 'Préparation des fichiers d’impression', 'forfait', 90, 'service', 20, 'print'],
  ['CARTES', 'Cartes de visite (lot de 500)', 'u', 45, 'goods', 20, 'print'],
  ['FLYERS', 'Flyers A5 recto verso (lot de 1000)', 'u', 120, 'goods', 20, 'print'],
  ['KAKEMONO', 'Kakémono 85 × 200 cm', 'u', 95, 'goods', 20, 'print'],
  ['BACHE', 'Bâche PVC 510 g imprimée', 'm²', 18, 'goods', 20, 'print'],
  ['VITRO', 'Vitrophanie adhésive', 'm²', 42, 'goods', 20, 'print'],
  ['ADH-SOL', 'Adhésif de sol antidérapant', 'm²', 55, 'goods', 20, 'print'],
  ['DIBOND', 'Panneau Dibond 3 mm', 'm²', 65, 'goods', 20, 'print'],
  ['ENSEIGNE', 'Enseigne lumineuse', 'u', 1450, 'goods', 20, 'print'],
  ['PLAQUE', 'Plaque de porte gravée', 'u', 45, 'goods', 20, 'print'],
  ['TOTE', 'Tote bag coton personnalisé', 'u', 6.5, 'goods', 20, 'print'],
  ['MUG', 'Mug personnalisé', 'u', 8.9, 'goods', 20, 'print'],
  ['STYLO', 'Stylo personnalisé', 'u', 1.2, 'goods', 20, 'print'],
  ['TSHIRT', 'T-shirt brodé', 'u', 14, 'goods', 20, 'print'],
  ['CARNET', 'Carnet A5 personnalisé', 'u', 7.5, 'goods', 20, 'print'],
  ['USB', 'Clé USB 16 Go gravée', 'u', 9.8, 'goods', 20, 'print'],
  ['STAND', 'Stand parapluie 3 × 3 m', 'u', 890, 'goods', 20, 'event'],
  ['EVT-COORD', 'Coordination d’événement', 'jour', 550, 'service', 20, 'event'],
  ['EVT-SCENO', 'Scénographie de stand', 'forfait', 2500, 'service', 20, 'event'],
  ['SONO-J', 'Sonorisation et éclairage', 'jour', 480, 'service', 20, 'event'],
  ['DEPLACEMENT', 'Frais de déplacement', 'forfait', 85, 'service', 20, 'event'],
  ['COCKTAIL', 'Cocktail dînatoire (par personne)', 'u', 38, 'service', 10, 'event'],
  ['PDEJ', 'Petit-déjeuner d’accueil (par personne)', 'u', 12, 'service', 10, 'event'],
  ['DEJ', 'Déjeuner de séminaire (par personne)', 'u', 32, 'service', 10, 'event'],
  ['PAUSE', 'Pause café (par personne)', 'u', 6, 'service', 10, 'event'],
  ['PLATEAU', 'Plateau-repas livré', 'u', 22, 'service', 10, 'event'],
  ['NUITEE', 'Nuitée d’hôtel séminaire', 'u', 110, 'service', 10, 'event'],
  ['NAVETTE', 'Navette autocar (transport de voyageurs)', 'jour', 680, 'service', 10, 'event'],
  ['SPECTACLE', 'Billetterie spectacle (par personne)', 'u', 25, 'service', 5.5, 'event'],
  ['CAFE', 'Café en grains bio', 'kg', 28, 'goods', 5.5, 'event'],
  ['CHOCO', 'Chocolats assortis', 'kg', 64, 'goods', 5.5, 'event'],
  ['MIEL', 'Miel de lavande', 'kg', 22, 'goods', 5.5, 'event'],
  ['COFFRET', 'Coffret gourmand', 'u', 45, 'goods', 5.5, 'event'],
  ['LIVRE-PATR', 'Livre « Patrimoines de France »', 'u', 39, 'goods', 5.5, 'publishing'],
  ['LIVRE-GUIDE', 'Guide pratique de la communication locale', 'u', 24, 'goods', 5.5, 'publishing'],
  ['MAG-N', 'Magazine « Regards de Province » (numéro)', 'u', 6.9, 'goods', 2.1, 'publishing'],
  ['MAG-AB', 'Abonnement annuel « Regards de Province »', 'u', 59, 'goods', 2.1, 'publishing'],
  ['MAG-LOT', 'Lot de 50 magazines (diffusion)', 'u', 250, 'goods', 2.1, 'publishing'],
  ['HORS-SERIE', 'Hors-série « Les Métiers d’art »', 'u', 12, 'goods', 2.1, 'publishing'],
  ['CREATION', 'Spectacle de création (première représentation)', 'forfait', 2800, 'service', 2.1, 'event'],
];

/** The organisation's VAT rates by rate, from the taxes router: what items and document lines refer to. */
export interface TaxRates {
  idOf(rate: number): number;
  line(rate: number): { title: string; rate: number };
}

export async function loadTaxRates(client: ApiClient): Promise<TaxRates> {
  const { data } = await client.taxes.list.query();
  const find = (rate: number) => {
    const tax = data.find((t) => t.rate === rate);
    if (!tax) throw new Error(`Taux de TVA ${rate} % absent des taxes de l’organisation`);
    return tax;
  };
  return { idOf: (rate) => find(rate).id, line: (rate) => ({ title: find(rate).title, rate }) };
}

/** Creates the ~60 catalogue items in one batched request; a few carry a description, one is discontinued. */
export async function seedItems(client: ApiClient, random: Random, taxes: TaxRates): Promise<SeedItem[]> {
  const inputs = CATALOGUE.map(([code, name, unit, unit_price, kind, rate]) => ({
    code,
    sku: kind === 'goods' ? `AF-${code}` : '',
    name,
    description: random.chance(0.3) ? `${name} — ${kind === 'goods' ? 'fourni et livré' : 'réalisé par nos équipes'}` : '',
    unit,
    unit_price,
    kind,
    active: code !== 'USB',
    tax_ids: [taxes.idOf(rate)],
  }));
  const created = await Promise.all(inputs.map((input) => client.items.create.mutate(input)));
  return CATALOGUE.flatMap(([code, name, unit, unit_price, kind, rate, theme], i) =>
    defined(inputs[i], 'inputs[i]').active
      ? [{ id: defined(created[i], 'created[i]').data.id, code, name, unit, unit_price, kind, rate, theme }]
      : [],
  );
}
