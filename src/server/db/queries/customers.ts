import { sql, type Selectable } from 'kysely';
import type { CustomersTable } from '../schema';
import type { Db } from '../connection';
import type { Customer } from '../../../shared/schemas/customer';
import { nowIso } from '../../clock';
import { defined } from '../../../shared/defined';
import { containsText } from './like';
import { refIdsTagged, withTags, type TagChip } from './tags';
import { OPEN_STATUSES } from '../../../shared/document-status';

const COLUMNS = [
  'id',
  'number',
  'type',
  'name',
  'legal_name',
  'email',
  'phone',
  'mobile',
  'web',
  'business_id',
  'vat_number',
  'address',
  'shipping',
  'contacts',
  'language',
  'currency',
  'maturity',
  'note',
  'description',
  'created_at',
  'updated_at',
  'deleted_at',
  'directory_status',
  'electronic_address',
  'routing_code',
  'directory_checked_at',
] as const;

type Row = Pick<Selectable<CustomersTable>, (typeof COLUMNS)[number]>;

/** A stored customer as the API answers it: JSON columns read back into objects. */
function fromRow(row: Row) {
  return {
    ...row,
    type: row.type as Customer['type'],
    address: JSON.parse(row.address) as Customer['address'],
    shipping: JSON.parse(row.shipping) as Customer['shipping'],
    contacts: JSON.parse(row.contacts) as Customer['contacts'],
  };
}
export type CustomerRecord = ReturnType<typeof fromRow> & { tag_ids: number[]; tags: TagChip[] };

function toColumns(customer: Customer) {
  return {
    type: customer.type,
    name: customer.name,
    legal_name: customer.legal_name,
    email: customer.email,
    phone: customer.phone,
    mobile: customer.mobile,
    web: customer.web,
    business_id: customer.business_id.replace(/\D/g, ''),
    vat_number: customer.vat_number,
    address: JSON.stringify(customer.address),
    address_city: customer.address.city,
    shipping: JSON.stringify(customer.shipping),
    contacts: JSON.stringify(customer.contacts),
    language: customer.language,
    currency: customer.currency,
    maturity: customer.maturity,
    note: customer.note,
    description: customer.description,
  };
}

export async function insertCustomer(db: Db, params: { organizationId: number; number: string; customer: Customer }): Promise<number> {
  const ids = await insertCustomers(db, { organizationId: params.organizationId, rows: [params] });
  return defined(ids.get(params.number), params.number);
}

/** Rows per statement of insertCustomers: 23 parameters each, far below SQLite's 32 766 and PostgreSQL's 65 535. */
const CUSTOMERS_PER_STATEMENT = 500;

/**
 * Many customers at once (an import), a chunk per statement, in the caller's transaction; the id of each, by its
 * number (unique in the organisation: the order of RETURNING's rows is not promised).
 */
export async function insertCustomers(
  db: Db,
  params: { organizationId: number; rows: readonly { number: string; customer: Customer }[] },
): Promise<Map<string, number>> {
  const now = nowIso();
  const ids = new Map<string, number>();
  for (let i = 0; i < params.rows.length; i += CUSTOMERS_PER_STATEMENT) {
    const chunk = params.rows.slice(i, i + CUSTOMERS_PER_STATEMENT);
    const inserted = await db
      .insertInto('customers')
      .values(
        chunk.map(({ number, customer }) => ({
          organization_id: params.organizationId,
          number,
          ...toColumns(customer),
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })),
      )
      .returning(['id', 'number'])
      .execute();
    for (const row of inserted) ids.set(row.number, row.id);
  }
  return ids;
}

export async function updateCustomer(db: Db, params: { organizationId: number; id: number; customer: Customer }): Promise<boolean> {
  const result = await db
    .updateTable('customers')
    .set({ ...toColumns(params.customer), updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findCustomer(db: Db, params: { organizationId: number; id: number }): Promise<CustomerRecord | undefined> {
  const row = await db
    .selectFrom('customers')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return row ? (await withTags(db, { organizationId: params.organizationId, kind: 'customer' }, [fromRow(row as Row)]))[0] : undefined;
}

export async function setCustomerDeletedAt(
  db: Db,
  params: { organizationId: number; id: number; deletedAt: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('customers')
    .set({ deleted_at: params.deletedAt, updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface CustomerListParams {
  organizationId: number;
  search?: string;
  type?: 'company' | 'individual';
  city?: string;
  tagId?: number;
  /** true: at least one issued invoice unpaid or partly paid (overdue ones are stored so); false: none. */
  unpaid?: boolean;
  archived: 'exclude' | 'include' | 'only';
  sortBy: 'name' | 'number' | 'created_at' | 'city';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export async function listCustomers(db: Db, params: CustomerListParams): Promise<{ total: number; data: CustomerRecord[] }> {
  let query = db.selectFrom('customers').where('organization_id', '=', params.organizationId);
  if (params.archived === 'exclude') query = query.where('deleted_at', 'is', null);
  if (params.archived === 'only') query = query.where('deleted_at', 'is not', null);
  if (params.type) query = query.where('type', '=', params.type);
  if (params.city) query = query.where(sql`lower(address_city)`, '=', params.city.toLowerCase());
  if (params.tagId)
    query = query.where('id', 'in', refIdsTagged(db, { organizationId: params.organizationId, kind: 'customer', tagId: params.tagId }));
  if (params.unpaid !== undefined) {
    const wanted = params.unpaid;
    query = query.where((eb) => {
      const hasOpenInvoice = eb.exists(
        eb
          .selectFrom('documents')
          .select(sql.lit(1).as('one'))
          .where('documents.organization_id', '=', params.organizationId)
          .whereRef('documents.customer_id', '=', 'customers.id')
          .where('documents.type', '=', 'invoice')
          .where('documents.status', 'in', OPEN_STATUSES),
      );
      return wanted ? hasOpenInvoice : eb.not(hasOpenInvoice);
    });
  }
  if (params.search) {
    const search = params.search;
    const digits = search.replace(/\s/g, '');
    query = query.where((eb) =>
      eb.or([
        containsText('name', search),
        containsText('legal_name', search),
        containsText('number', search),
        containsText('email', search),
        ...(/^\d+$/.test(digits) ? [eb('business_id', 'like', `${digits}%`)] : []),
      ]),
    );
  }
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const sortColumn = params.sortBy === 'city' ? 'address_city' : params.sortBy;
  const rows = await query
    .select(COLUMNS)
    .orderBy(sql.ref(sortColumn), params.sortOrder)
    .orderBy('id', params.sortOrder)
    .limit(params.limit)
    .offset(params.offset)
    .execute();
  return {
    total: Number(total),
    data: await withTags(
      db,
      { organizationId: params.organizationId, kind: 'customer' },
      rows.map((r) => fromRow(r as Row)),
    ),
  };
}

/**
 * Customers that look like the one about to be saved: the same SIREN (a SIRET's first 9 digits), or the
 * same name and e-mail, case and spaces aside. Archived ones too: restoring beats a second record.
 */
export async function findCustomerDuplicates(
  db: Db,
  params: { organizationId: number; siren: string; name: string; email: string; excludeId?: number },
): Promise<
  {
    id: number;
    number: string;
    name: string;
    email: string;
    business_id: string;
    deleted_at: string | null;
    reason: 'siren' | 'name_email';
  }[]
> {
  const { organizationId, siren, name, email, excludeId } = params;
  if (!siren && !(name && email)) return [];
  const rows = await db
    .selectFrom('customers')
    .select(['id', 'number', 'name', 'email', 'business_id', 'deleted_at'])
    .where('organization_id', '=', organizationId)
    .$if(excludeId !== undefined, (q) => q.where('id', '!=', excludeId ?? 0))
    .where((eb) =>
      eb.or([
        ...(siren ? [eb(sql<string>`substr(business_id, 1, 9)`, '=', siren)] : []),
        ...(name && email
          ? [
              eb.and([
                eb(sql<string>`lower(trim(name))`, '=', name.toLowerCase()),
                eb(sql<string>`lower(trim(email))`, '=', email.toLowerCase()),
              ]),
            ]
          : []),
      ]),
    )
    .orderBy('id')
    .limit(5)
    .execute();
  return rows.map((r) => ({ ...r, reason: siren && r.business_id.slice(0, 9) === siren ? 'siren' : 'name_email' }));
}

/** What the platform's directory answered for the customer's SIREN (services/einvoice-directory.ts). */
export async function setCustomerDirectory(
  db: Db,
  params: {
    organizationId: number;
    id: number;
    status: 'unknown' | 'listed' | 'absent';
    electronicAddress: string;
    routingCode: string;
    checkedAt: string | null;
  },
): Promise<void> {
  await db
    .updateTable('customers')
    .set({
      directory_status: params.status,
      electronic_address: params.electronicAddress,
      routing_code: params.routingCode,
      directory_checked_at: params.checkedAt,
    })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}
