import type { RestMeta } from '../trpc';

/**
 * TRANSITIONAL — delete once src/server/routers/documents.ts and share.ts carry `.meta({ rest })` themselves (their
 * owner adds it in the same convention; issue 11). Until then their REST doors are described here, keyed by procedure
 * path, and used only for a procedure that declares no `meta.rest` of its own.
 */
export const PENDING_REST_META: Record<string, RestMeta> = {
  'documents.list': { method: 'GET', path: '/api/documents' },
  'documents.create': { method: 'POST', path: '/api/documents', status: 201 },
  'documents.get': { method: 'GET', path: '/api/documents/{id}' },
  'documents.update': { method: 'PUT', path: '/api/documents/{id}', bodyKey: 'data' },
  'documents.delete': { method: 'DELETE', path: '/api/documents/{id}' },
  'documents.issue': { method: 'POST', path: '/api/documents/{id}/issue' },
  'documents.setStatus': { method: 'POST', path: '/api/documents/{id}/status' },
  'documents.markSent': { method: 'POST', path: '/api/documents/{id}/sent' },
  'documents.convert': { method: 'POST', path: '/api/documents/{id}/convert', status: 201 },
  'documents.duplicate': { method: 'POST', path: '/api/documents/{id}/duplicate', status: 201 },
  'documents.deposit': { method: 'POST', path: '/api/documents/{id}/deposit', status: 201 },
  'documents.payments': { method: 'GET', path: '/api/documents/{id}/payments' },
  'documents.recordPayment': { method: 'POST', path: '/api/documents/{id}/payments', bodyKey: 'data', status: 201 },
  'documents.updatePayment': { method: 'PUT', path: '/api/documents/{id}/payments/{paymentId}', bodyKey: 'data' },
  'documents.deletePayment': { method: 'DELETE', path: '/api/documents/{id}/payments/{paymentId}' },
  'share.get': { method: 'GET', path: '/api/share/{uuid}' },
};
