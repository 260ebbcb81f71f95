import type { RestRoute } from '../http/rest-routes';
import { CARD_WEBHOOK_PREFIX, STRIPE_WEBHOOK_PATH } from '../http/payment-webhook';
import { hoistDefinitions, jsonSchemaOf, omitProperties, propertiesOf, propertySchema, type JsonSchema } from './json-schema';
import { extractComponents, type SchemaSlot } from './components';
import { DOWNLOAD_PREFIX } from '../http/download';

export const OPENAPI_PATH = '/api/openapi.json';

/** Every error answer, whatever its status: `{ messages }`, and `fields` on a 400 about fields. */
const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    messages: {
      description: 'Un message en français par champ à corriger, ou un seul message',
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    },
    fields: {
      description:
        'Sur un 400 qui porte sur des champs : le chemin de chaque champ refusé (« address.postal_code ») et son message, à afficher à côté du champ',
      type: 'object',
      additionalProperties: { type: 'string' },
    },
  },
  required: ['messages'],
};

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** The answers' headers, declared once. */
const HEADERS = {
  RetryAfter: {
    description: 'Dans combien de secondes réessayer',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfterWhenKnown: {
    description: 'Dans combien de secondes réessayer, quand la limite le sait (la clé d’API, qui compte par minute)',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  WwwAuthenticate: {
    description: 'Comment s’authentifier : une clé d’API en `Authorization: Bearer`, ou la session du navigateur',
    required: true,
    schema: { type: 'string' },
  },
  ContentDisposition: {
    description: 'Le nom du fichier (`attachment; filename="…"`)',
    required: true,
    schema: { type: 'string' },
  },
} as const;
const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** Every error status an operation may answer, as one shared response each. */
const ERROR_RESPONSES = {
  '400': { name: 'BadRequest', description: 'Requête invalide : un message par champ, qui le nomme (et `fields` pour un formulaire)' },
  '401': {
    name: 'Unauthorized',
    description: 'Non connecté, ou clé d’API inconnue, révoquée ou mal écrite',
    headers: { 'WWW-Authenticate': header('WwwAuthenticate') },
  },
  '402': {
    name: 'PaymentRequired',
    description: 'Au-delà de la formule (limite ou fonctionnalité) : le message nomme la limite et la formule qui la lève',
  },
  '403': { name: 'Forbidden', description: 'Action non autorisée (rôle, portée de la clé d’API, ou requête venue d’un autre site)' },
  '404': { name: 'NotFound', description: 'Introuvable (y compris la fiche d’une autre entreprise)' },
  '409': { name: 'Conflict', description: 'En conflit avec l’état actuel' },
  '413': {
    name: 'PayloadTooLarge',
    description: 'Corps trop volumineux, ou travail qui a dépassé la mémoire qui lui est accordée : rien n’est écrit',
  },
  '422': {
    name: 'IdempotencyKeyReused',
    description: 'Cette clé Idempotency-Key a déjà servi pour une autre requête : rien n’est fait',
  },
  '429': {
    name: 'TooManyRequests',
    description: 'Trop de requêtes ou de tentatives (clé d’API, connexion, travaux lourds…)',
    headers: { 'Retry-After': header('RetryAfterWhenKnown') },
  },
  '500': { name: 'InternalError', description: 'Erreur interne du serveur (sans détail technique)' },
  '502': {
    name: 'BadGateway',
    description: 'Un service extérieur (serveur SMTP, plateforme agréée, Stripe) a échoué ou ne répond pas : le message le nomme',
  },
  '503': {
    name: 'ServiceUnavailable',
    description:
      'Indisponible un instant : serveur en cours d’arrêt, travail lourd en file pleine ou hors délai, Chromium absent, base injoignable',
    headers: { 'Retry-After': header('RetryAfter') },
  },
} as const;
type ErrorStatus = keyof typeof ERROR_RESPONSES;
const errorRef = (status: ErrorStatus) => ({ $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` });
const errors = (...statuses: ErrorStatus[]) => Object.fromEntries(statuses.map((status) => [status, errorRef(status)]));

const IDEMPOTENCY_KEY_PARAMETER: JsonSchema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Une clé par action (1 à 255 caractères visibles) : une requête répétée avec la même clé dans les 24 h reçoit la première réponse et ne crée rien de plus ; la même clé avec un autre contenu est refusée (422).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/**
 * The payment provider's door, outside tRPC (the signature covers the raw bytes). Described here by hand
 * since no procedure carries it; its answers are those of http/payment-webhook.ts.
 */
const STRIPE_WEBHOOK_OPERATION = {
  operationId: 'stripe.webhook',
  tags: ['subscription'],
  summary: 'Événements signés de Stripe (abonnement créé, renouvelé, paiement échoué, résilié)',
  description:
    'Appelé par Stripe, jamais par un client de l’API : le corps brut est vérifié avec STRIPE_WEBHOOK_SECRET (en-tête Stripe-Signature, horodatage de moins de 300 s), puis l’événement est appliqué une seule fois (son identifiant est gardé : une livraison répétée ne change rien). Événements lus : checkout.session.completed, customer.subscription.created/updated/deleted, invoice.paid, invoice.payment_succeeded, invoice.payment_failed ; les autres sont acquittés sans effet. N’existe que si Stripe est configuré (sinon 404).',
  security: [],
  parameters: [
    {
      name: 'Stripe-Signature',
      in: 'header',
      required: true,
      description: 'Signature de Stripe : t=<horodatage>,v1=<HMAC-SHA256 du corps>',
      schema: { type: 'string' },
    },
  ],
  requestBody: {
    required: true,
    content: json({
      type: 'object',
      description: 'Un événement Stripe (https://docs.stripe.com/api/events/object)',
      properties: {
        id: { type: 'string' },
        type: { type: 'string' },
        data: { type: 'object', properties: { object: { type: 'object' } } },
      },
      required: ['id', 'type', 'data'],
    }),
  },
  responses: {
    '200': {
      description: 'Reçu ; `duplicate` vaut true quand cet événement avait déjà été appliqué (rien n’est changé)',
      content: json({
        type: 'object',
        properties: { received: { type: 'boolean', const: true }, duplicate: { type: 'boolean' } },
        required: ['received', 'duplicate'],
      }),
    },
    '400': {
      description: 'Signature absente, invalide ou trop ancienne (rejeu), ou corps illisible : rien n’est changé',
      content: json({ $ref: '#/components/schemas/Error' }),
    },
    '404': { description: 'Aucun fournisseur de paiement configuré sur ce serveur', content: json({ $ref: '#/components/schemas/Error' }) },
    '405': { description: 'Méthode autre que POST', content: json({ $ref: '#/components/schemas/Error' }) },
    ...errors('413', '500', '503'),
  },
};

/** An organisation's own Stripe account (card payments on its invoices): outside tRPC too, for the same reason. */
const CARD_WEBHOOK_OPERATION = {
  operationId: 'stripe.cardWebhook',
  tags: ['onlinePayment'],
  summary: 'Événements signés du compte Stripe de l’entreprise (paiement par carte d’une facture)',
  description:
    'L’adresse à donner à Stripe (Développeurs → Webhooks) est affichée dans Paramètres → Paiement en ligne. Le corps brut est vérifié avec le secret de signature enregistré par l’entreprise (en-tête Stripe-Signature, horodatage de moins de 300 s). Une session Checkout payée (checkout.session.completed, ou checkout.session.async_payment_succeeded pour un moyen de paiement différé) ouverte depuis la page publique d’une facture y enregistre un paiement par carte, avec la commission de Stripe, une seule fois : le même événement, ou une autre livraison pour la même session, ne change rien (`duplicate`). Une session inconnue est acquittée sans effet (`ignored`, journalisée) ; un paiement que la facture ne peut plus recevoir (déjà réglée entre-temps) est acquitté, gardé à part et journalisé pour être remboursé (`refused`).',
  security: [],
  parameters: [
    {
      name: 'organisation',
      in: 'path',
      required: true,
      description: 'L’identifiant de l’entreprise, tel qu’il figure dans l’adresse affichée par Paramètres → Paiement en ligne',
      schema: { type: 'integer', minimum: 1 },
    },
    {
      name: 'Stripe-Signature',
      in: 'header',
      required: true,
      description: 'Signature de Stripe : t=<horodatage>,v1=<HMAC-SHA256 du corps>',
      schema: { type: 'string' },
    },
  ],
  requestBody: STRIPE_WEBHOOK_OPERATION.requestBody,
  responses: {
    '200': {
      description: 'Reçu ; `outcome` dit ce qui en a été fait : paiement enregistré, déjà enregistré, sans effet, ou refusé par la facture',
      content: json({
        type: 'object',
        properties: {
          received: { type: 'boolean', const: true },
          outcome: { type: 'string', enum: ['recorded', 'duplicate', 'ignored', 'refused'] },
        },
        required: ['received', 'outcome'],
      }),
    },
    '400': {
      description: 'Signature absente, invalide ou trop ancienne (rejeu), ou corps illisible : rien n’est enregistré',
      content: json({ $ref: '#/components/schemas/Error' }),
    },
    '404': { description: 'Aucune clé Stripe enregistrée pour cette entreprise', content: json({ $ref: '#/components/schemas/Error' }) },
    '405': { description: 'Méthode autre que POST', content: json({ $ref: '#/components/schemas/Error' }) },
    ...errors('413', '500', '503'),
  },
};

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .map((part) => (part[0] ?? '').toUpperCase() + part.slice(1))
    .join('');

/**
 * The error statuses a REST door may answer, from what its procedure says about itself: any path may be refused as
 * invalid (400), unauthenticated (a bad API key, 401), forbidden (a foreign Origin, a role, 403), not found (404), in
 * conflict (409), rate-limited (the API key's minute, 429), broken (500) or briefly unavailable (the process
 * stopping, 503); a body may be too large (413); a POST may reuse its Idempotency-Key (422); a plan limit or feature,
 * or any write of an API key after a downgrade, may need another plan (402); an outside service may fail (502).
 */
function errorStatusesOf(route: RestRoute, hasBody: boolean): ErrorStatus[] {
  const statuses: ErrorStatus[] = ['400', '401', '403', '404', '409', '429', '500', '503'];
  const isPublic = route.meta.allow === 'public';
  if (!isPublic && (route.type === 'mutation' || route.meta.limit || route.meta.feature)) statuses.push('402');
  // A file the server builds (the FEC) is built in a worker thread with its own memory budget.
  if (hasBody || (route.file && !('inline' in route.file)) || route.meta.heavy) statuses.push('413');
  if (route.method === 'POST') statuses.push('422');
  if (route.meta.upstream) statuses.push('502');
  return statuses.sort();
}

/** One REST door's operation; its schemas are left in `slots`, to be shared as components once all are known. */
function operation(route: RestRoute, slots: SchemaSlot[], recursive: Record<string, JsonSchema>) {
  const name = pascal(route.procedure);
  const input = hoistDefinitions(route.inputs.length === 1 ? jsonSchemaOf(route.inputs[0], 'input') : undefined, `${name}Input`, recursive);
  const output = hoistDefinitions(jsonSchemaOf(route.output, 'output'), `${name}Output`, recursive);
  const properties = input ? propertiesOf(input) : new Map<string, { schema: JsonSchema; required: boolean }>();
  const parameters: JsonSchema[] = route.params.map((param) => ({
    name: param,
    in: 'path',
    required: true,
    schema: properties.get(param)?.schema ?? { type: 'string' },
  }));
  const readsQuery = route.method === 'GET' || route.query === true;
  const queryNames = readsQuery ? [...properties.keys()].filter((key) => !route.params.includes(key) && key !== route.bodyKey) : [];
  for (const key of queryNames) {
    const property = properties.get(key);
    parameters.push({ name: key, in: 'query', required: property?.required ?? false, schema: property?.schema ?? {} });
  }
  for (const parameter of parameters) slots.push({ holder: parameter, name: `${name}${pascal(String(parameter.name))}`, side: 'input' });
  // Every POST honours an optional Idempotency-Key (src/server/http/idempotency.ts).
  if (route.method === 'POST') parameters.push({ ...IDEMPOTENCY_KEY_PARAMETER });
  const hasBody = input !== undefined && (route.method === 'POST' || route.method === 'PUT');
  const body =
    hasBody && input
      ? route.bodyKey
        ? propertySchema(input, route.bodyKey)
        : omitProperties(input, [...route.params, ...queryNames])
      : undefined;
  const status = String(route.status ?? 200);
  const media = (schema: JsonSchema | undefined, slotName: string, side: SchemaSlot['side'] = 'output') => {
    const holder = { schema: schema ?? {} };
    slots.push({ holder, name: slotName, side });
    return holder;
  };
  const success = route.file
    ? 'inline' in route.file
      ? {
          description: 'Le fichier lui-même, affiché dans le navigateur (son type dit ce qu’il est)',
          content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        }
      : {
          description: route.file.jsonWhenAsked
            ? 'Le fichier, en pièce jointe (Content-Disposition donne son nom) ; avec `Accept: application/json`, l’objet `{ filename, content }`'
            : 'Le fichier, en pièce jointe (Content-Disposition donne son nom)',
          headers: { 'Content-Disposition': header('ContentDisposition') },
          content: {
            [`${route.file.contentType}; charset=${route.file.charset}`]: { schema: { type: 'string' } },
            ...(route.file.jsonWhenAsked ? { 'application/json': media(output, `${name}Answer`) } : {}),
          },
        }
    : { description: status === '201' ? 'Créé' : 'Succès', content: { 'application/json': media(output, `${name}Answer`) } };
  return {
    operationId: route.procedure,
    tags: [route.procedure.split('.')[0] ?? route.procedure],
    // Every operation has a summary; a procedure that declares none is named by its tRPC path.
    summary: route.summary ?? route.procedure,
    ...(route.meta.allow === 'public' ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': media(body, `${name}Body`, 'input') } } } : {}),
    responses: {
      [status]: success,
      ...(route.nothingCreated && !route.file
        ? { '200': { description: route.nothingCreated.description, content: { 'application/json': media(output, `${name}Answer`) } } }
        : {}),
      ...errors(...errorStatusesOf(route, hasBody)),
    },
  };
}

const uuidParameter = (description: string) => ({
  name: 'uuid',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', maxLength: 64 },
});

/** GET /documents/download/{uuid} (http/download.ts): outside /api and tRPC, the link printed in e-mails and pages. */
const DOWNLOAD_OPERATION = {
  operationId: 'documents.download',
  tags: ['documents'],
  summary: 'Le PDF d’un document (pour une facture ou un avoir émis : le PDF/A-3 Factur-X gardé à son émission)',
  description:
    'Sans session : l’uuid du lien de partage est la clé. Le PDF d’une facture ou d’un avoir émis est celui gardé à son émission (vérifié à chaque téléchargement) ; les autres documents sont imprimés à la demande. Limité par adresse IP.',
  security: [],
  parameters: [uuidParameter('L’uuid du document (celui de son lien de partage)')],
  responses: {
    '200': {
      description: 'Le PDF, en pièce jointe',
      headers: { 'Content-Disposition': header('ContentDisposition') },
      content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
    },
    ...errors('400', '404', '429', '500', '503'),
  },
};

/** GET /share/{uuid}: the public page of a document, the single-page app's HTML (its data is GET /api/share/{uuid}). */
const SHARE_PAGE_OPERATION = {
  operationId: 'share.page',
  tags: ['share'],
  summary: 'La page publique d’un document, à ouvrir dans un navigateur',
  description:
    'Sans session : la page HTML de l’application, qui affiche le document en lisant GET /api/share/{uuid} (un uuid inconnu y est signalé).',
  security: [],
  parameters: [uuidParameter('L’uuid du document (celui de son lien de partage)')],
  responses: {
    '200': { description: 'La page HTML', content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } } },
    '400': { description: 'Adresse mal formée', content: errorContent },
    '503': {
      description: 'L’interface n’est pas construite sur ce serveur',
      headers: {},
      content: { 'text/plain; charset=utf-8': { schema: { type: 'string' } } },
    },
  },
};

/** The OpenAPI 3.1 document of every REST door, derived from the same procedure metadata as the doors themselves. */
export function buildOpenApiDocument(routes: RestRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const slots: SchemaSlot[] = [];
  const recursive: Record<string, JsonSchema> = {};
  for (const route of routes) {
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation(route, slots, recursive);
    paths[route.path] = item;
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openapi',
      tags: ['system'],
      summary: 'Ce document',
      security: [],
      responses: {
        '200': { description: 'Document OpenAPI 3.1', content: json({ type: 'object' }) },
        ...errors('400', '403', '500', '503'),
      },
    },
  };
  paths[STRIPE_WEBHOOK_PATH] = { post: STRIPE_WEBHOOK_OPERATION };
  paths[`${CARD_WEBHOOK_PREFIX}{organisation}`] = { post: CARD_WEBHOOK_OPERATION };
  paths[`${DOWNLOAD_PREFIX}{uuid}`] = { get: DOWNLOAD_OPERATION };
  paths['/share/{uuid}'] = { get: SHARE_PAGE_OPERATION };
  const schemas = extractComponents(slots, { Error: ERROR_SCHEMA, ...recursive });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Facturier',
      version,
      description:
        'Les chemins REST de Facturier : JSON en entrée et en sortie, session par cookie `session` ou clé d’API (`Authorization: Bearer fk_live_…`, créée dans Paramètres → API). Chaque chemin est aussi une procédure tRPC sur /api/trpc.',
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }, { apiKey: [] }],
    paths,
    components: {
      schemas,
      responses: Object.fromEntries(
        Object.values(ERROR_RESPONSES).map(({ name, description, ...rest }) => [name, { description, ...rest, content: errorContent }]),
      ),
      headers: HEADERS,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'session' },
        // Within the key's organisation and scope (read: reads and exports; write: also the day's records).
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Clé d’API de l’entreprise : « read » lit et exporte, « write » crée et modifie aussi les documents, clients, articles, dépenses et rendez-vous.',
        },
      },
    },
  };
}
