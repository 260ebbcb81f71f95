// The document operations the seed performs, each one typed call (or two) of the tRPC client, with a request count.
import type { inferRouterOutputs } from '@trpc/server';
import type { ApiClient } from '../api-client';
import type { AppRouter } from '../../src/server/routers/_app';
import type { DocumentInput, DocumentType } from '../../src/shared/schemas/document';
import type { PaymentInput } from '../../src/shared/schemas/payment';

export type DocumentRecord = inferRouterOutputs<AppRouter>['documents']['get'];
type ManualStatus = 'pending' | 'accepted' | 'refused' | 'done';

/** The form of a document as the API answered it, redated: conversions and deposits start as drafts dated today. */
function redated(doc: DocumentRecord, date: string): DocumentInput {
  return {
    type: doc.type,
    date,
    // Left out, the maturity is recomputed from the new date and the customer's payment days.
    condition: doc.condition,
    header: doc.header,
    footer: doc.footer,
    terms: doc.terms,
    note: doc.note,
    discount_type: doc.discount_type,
    discount_value: doc.discount_value,
    shipping: doc.shipping,
    shipping_details: doc.shipping_details,
    additional_info: doc.additional_info,
    deposit_request: doc.deposit_request,
    customer_id: doc.customer_id,
    order_id: doc.order_id,
    currency: doc.currency,
    price_mode: doc.price_mode,
    items: doc.items.map((i) => ({
      code: i.code,
      sku: i.sku,
      item: i.item,
      description: i.description,
      quantity: i.quantity,
      unit: i.unit,
      unit_price: i.unit_price,
      discount_type: i.discount_type,
      discount_value: i.discount_value,
      taxes: i.taxes,
      kind: i.kind,
    })),
  };
}

export class DocumentActions {
  requests = 0;
  payments = 0;

  constructor(private readonly client: ApiClient) {}

  async draft(form: DocumentInput): Promise<DocumentRecord> {
    this.requests++;
    return (await this.client.documents.create.mutate(form)).data;
  }

  async issue(id: number): Promise<DocumentRecord> {
    this.requests++;
    return (await this.client.documents.issue.mutate({ id })).data;
  }

  async issued(form: DocumentInput): Promise<DocumentRecord> {
    return this.issue((await this.draft(form)).id);
  }

  /** Converts an issued document and dates the new draft `date` (a conversion alone dates it today). */
  async convert(
    id: number,
    type: DocumentType,
    date: string,
    opts: { lines?: { id: number; quantity: number }[]; note?: string } = {},
  ): Promise<DocumentRecord> {
    this.requests += 2;
    const { data } = await this.client.documents.convert.mutate({ id, type, lines: opts.lines });
    const form = redated(data, date);
    if (opts.note) form.note = opts.note;
    return (await this.client.documents.update.mutate({ id: data.id, data: form })).data;
  }

  /** A deposit invoice (CGI art. 289) on an estimate or order, dated `date`. */
  async deposit(id: number, percent: number, date: string): Promise<DocumentRecord> {
    this.requests += 2;
    const { data } = await this.client.documents.deposit.mutate({ id, percent });
    return (await this.client.documents.update.mutate({ id: data.id, data: redated(data, date) })).data;
  }

  async setStatus(id: number, status: ManualStatus): Promise<void> {
    this.requests++;
    await this.client.documents.setStatus.mutate({ id, status });
  }

  async markSent(id: number): Promise<void> {
    this.requests++;
    await this.client.documents.markSent.mutate({ id });
  }

  async get(id: number): Promise<DocumentRecord> {
    this.requests++;
    return this.client.documents.get.query({ id });
  }

  async pay(id: number, payment: PaymentInput): Promise<void> {
    this.requests++;
    this.payments++;
    await this.client.documents.recordPayment.mutate({ id, data: payment });
  }
}
