import type { RestRoute } from '../http/rest-routes';
import { STRIPE_WEBHOOK_PATH } from '../http/payment-webhook';
import { jsonSchemaOf, omitProperties, propertiesOf, propertySchema, type JsonSchema } from './json-schema';

export const OPENAPI_PATH = '/api/openapi.json';

/** CONTRACT.md "Errors": every error answer, whatever its status. */
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
const ERROR_STATUSES: Record<string, string> = {
  '400': 'Requête invalide (un message par champ, qui le nomme)',
  '401': 'Non connecté',
  '402': 'Au-delà de la formule (limite ou fonctionnalité) : le message nomme la limite et la formule qui la lève',
  '403': 'Action non autorisée',
  '404': 'Introuvable (y compris la fiche d’une autre entreprise)',
  '409': 'En conflit avec l’état actuel',
  '429': 'Trop de requêtes avec cette clé d’API (l’en-tête Retry-After dit dans combien de secondes réessayer)',
};
const errorResponses = Object.fromEntries(
  Object.entries(ERROR_STATUSES).map(([status, description]) => [
    status,
    { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  ]),
);

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
  },
};

function operation(route: RestRoute) {
  const input = route.inputs.length === 1 ? jsonSchemaOf(route.inputs[0], 'input') : undefined;
  const output = jsonSchemaOf(route.output, 'output');
  const properties = input ? propertiesOf(input) : new Map<string, { schema: JsonSchema; required: boolean }>();
  const parameters: JsonSchema[] = route.params.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties.get(name)?.schema ?? { type: 'string' },
  }));
  const readsQuery = route.method === 'GET' || route.query === true;
  const queryNames = readsQuery ? [...properties.keys()].filter((name) => !route.params.includes(name) && name !== route.bodyKey) : [];
  for (const name of queryNames) {
    const property = properties.get(name);
    parameters.push({ name, in: 'query', required: property?.required ?? false, schema: property?.schema ?? {} });
  }
  // Every POST honours an optional Idempotency-Key (src/server/http/idempotency.ts).
  if (route.method === 'POST') parameters.push(IDEMPOTENCY_KEY_PARAMETER);
  const hasBody = input !== undefined && (route.method === 'POST' || route.method === 'PUT');
  const body =
    hasBody && input
      ? route.bodyKey
        ? propertySchema(input, route.bodyKey)
        : omitProperties(input, [...route.params, ...queryNames])
      : undefined;
  const status = String(route.status ?? 200);
  return {
    operationId: route.procedure,
    tags: [route.procedure.split('.')[0] ?? route.procedure],
    ...(route.summary ? { summary: route.summary } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: json(body) } } : {}),
    responses: {
      [status]: route.file
        ? 'inline' in route.file
          ? {
              description: 'Le fichier lui-même, affiché dans le navigateur (son type dit ce qu’il est)',
              content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
            }
          : {
              description: 'Le fichier, en pièce jointe (Content-Disposition donne son nom)',
              content: { [`${route.file.contentType}; charset=${route.file.charset}`]: { schema: { type: 'string' } } },
            }
        : { description: status === '201' ? 'Créé' : 'Succès', content: json(output ?? {}) },
      ...errorResponses,
    },
  };
}

/** The OpenAPI 3.1 document of every REST door, derived from the same procedure metadata as the doors themselves. */
export function buildOpenApiDocument(routes: RestRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation(route);
    paths[route.path] = item;
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openapi',
      tags: ['system'],
      summary: 'Ce document',
      security: [],
      responses: { '200': { description: 'Document OpenAPI 3.1', content: json({ type: 'object' }) } },
    },
  };
  paths[STRIPE_WEBHOOK_PATH] = { post: STRIPE_WEBHOOK_OPERATION };
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
      schemas: { Error: ERROR_SCHEMA },
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
