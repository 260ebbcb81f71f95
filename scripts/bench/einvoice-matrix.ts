// The e-invoice test matrix, in-process: each case issued through the REST doors of a server started in this process
// (fresh SQLite file), its CII and UBL generated from the issued document and validated against EN 16931, the French
// CIUS (BR-FR-Flux2) and, for the CII, Factur-X 1.09. Prints, per case and syntax: fatal asserts (0 expected), the
// EN 16931 and BR-FR warnings, the bytes, and the cost of one flow (generate + validate, medians). Prints figures only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEnv } from '../../src/server/env';
import { createApp } from '../../src/server/app';
import { artefactPath, type EinvoiceSyntax, frenchRules } from '../../src/server/einvoice/artefacts';
import { buildEinvoiceXml } from '../../src/server/services/einvoice-xml';
import { validateFrenchEinvoice } from '../../src/server/einvoice/french-cius';
import { setCustomerDirectory } from '../../src/server/db/queries/customers';
import { defined } from '../../src/shared/defined';

const RUNS = Number(process.env.BENCH_EINVOICE_RUNS ?? 3);

const median = (values: number[]) => defined([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]);

/**
 * The rules the FNFE's `_WARNING` release flags as warnings: the strict release (the one run) flags every rule fatal,
 * with the same tests, so a BR-FR assert whose id is here is a warning, any other a fatal error.
 */
function frenchWarningRules(syntax: EinvoiceSyntax): Set<string> {
  const xslt = fs.readFileSync(artefactPath(frenchRules[syntax].xslt.replace(/\.xslt$/, '_WARNING.xslt')), 'utf8');
  const ids = [...xslt.matchAll(/name="id">([^<]+)<\/xsl:attribute>\s*<xsl:attribute name="flag">warning</g)];
  return new Set(ids.map((m) => defined(m[1])));
}

/** What the bench reads of an answer: the id of what was created or issued. */
type Entity = { id: number };
type Rest = (method: string, url: string, body?: unknown) => Promise<{ status: number; body: (Entity & { data?: Entity }) | null }>;

async function owner(baseUrl: string, name: string): Promise<Rest> {
  let cookie = '';
  const rest: Rest = async (method, url, body) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const set = response.headers.get('set-cookie');
    if (set) cookie = defined(set.split(';')[0]);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const registered = await rest('POST', '/api/auth/register', {
    first_name: 'Bench',
    last_name: 'Mark',
    email: `bench-${name}@exemple.fr`,
    password: 'bench-password',
    organization: 'Atelier Fontaine SARL',
  });
  if (registered.status !== 201 && registered.status !== 200) throw new Error(`inscription : ${registered.status}`);
  return rest;
}

const seller = {
  name: 'Atelier Fontaine',
  legal_form: 'SARL',
  capital: '10 000 €',
  siret: '552 032 534 00646',
  rcs_city: 'Paris',
  vat_number: 'FR27552032534',
  address: { line1: '12 rue des Lilas', postal_code: '75011', city: 'Paris' },
};
const french = {
  name: 'Boulangerie Martin',
  business_id: '732 829 320',
  address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
};
const line = (item: string, quantity: number, unit_price: number, rate = 20, extra: Record<string, unknown> = {}) => ({
  item,
  quantity,
  unit_price,
  taxes: rate > 0 ? [{ title: `TVA ${String(rate).replace('.', ',')} %`, rate }] : [],
  ...extra,
});

/** Every case of the matrix: its name and the id of the issued document. */
async function issueMatrix(baseUrl: string, db: Parameters<typeof setCustomerDirectory>[0]): Promise<{ name: string; id: number }[]> {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
  const rest = await owner(baseUrl, 'matrix');
  const ok = async (method: string, url: string, body?: unknown) => {
    const answer = await rest(method, url, body);
    if (answer.status >= 300) throw new Error(`${method} ${url} : ${answer.status} ${JSON.stringify(answer.body)}`);
    return defined(answer.body?.data ?? answer.body);
  };
  await ok('PUT', '/api/organization', {
    ...seller,
    additional_info: [
      { key: 'IBAN', value: 'FR76 3000 6000 0112 3456 7890 189' },
      { key: 'BIC', value: 'AGRIFRPP' },
    ],
  });
  const customer = (body: Record<string, unknown>) => ok('POST', '/api/customers', body);
  const issue = async (body: Record<string, unknown>, call = ok) => {
    const draft = await call('POST', '/api/documents', { date: today, ...body });
    return call('POST', `/api/documents/${draft.id}/issue`);
  };
  const cases: { name: string; id: number }[] = [];

  const b2b = await customer(french);
  // What the platform's directory answered for it (no platform here): its address and routing code, kept on the customer.
  const owned = await db.selectFrom('customers').select('organization_id').where('id', '=', b2b.id).executeTakeFirstOrThrow();
  await setCustomerDirectory(db, {
    organizationId: owned.organization_id,
    id: b2b.id,
    status: 'listed',
    electronicAddress: '732829320_FACTURES',
    routingCode: 'COMPTA',
    checkedAt: new Date().toISOString(),
  });
  const mixed = await issue({
    customer_id: b2b.id,
    purchase_order: 'BC-2026-17',
    items: [
      line('Pose', 2, 450, 20, { discount_type: 'percent', discount_value: 10 }),
      line('Fournitures', 3, 49.99, 5.5, { kind: 'goods', unit: 'kg' }),
      line('Conseil', 1.5, 80, 10, { unit: 'h' }),
    ],
    shipping: 25,
    shipping_tax: { title: 'TVA 20 %', rate: 20 },
    discount_type: 'percent',
    discount_value: 7,
  });
  cases.push({ name: 'French B2B, directory address (380)', id: mixed.id });
  const credit = await ok('POST', `/api/documents/${mixed.id}/convert`, { type: 'credit' });
  await ok('POST', `/api/documents/${credit.id}/issue`);
  cases.push({ name: 'credit note (381)', id: credit.id });

  const estimate = await issue({
    type: 'estimate',
    customer_id: b2b.id,
    items: [line('Cuisine', 1, 1000, 20, { kind: 'goods' }), line('Pose', 1, 400, 10)],
  });
  const deposit = await ok('POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 });
  await ok('POST', `/api/documents/${deposit.id}/issue`);
  cases.push({ name: 'deposit (386)', id: deposit.id });
  const final = await ok('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' });
  await ok('POST', `/api/documents/${final.id}/issue`);
  cases.push({ name: 'final invoice after deposit (380, M4)', id: final.id });

  const german = await customer({
    name: 'Müller & Söhne GmbH',
    vat_number: 'DE123456789',
    address: { line1: 'Hauptstraße 5', postal_code: '10115', city: 'Berlin', country: 'Allemagne' },
  });
  cases.push({
    name: 'EU B2B goods, intra-EU (K)',
    id: (await issue({ customer_id: german.id, items: [line('Fauteuil', 2, 890, 0, { kind: 'goods' })] })).id,
  });
  cases.push({
    name: 'EU B2B services, reverse charge (AE)',
    id: (await issue({ customer_id: german.id, items: [line('Développement', 10, 650, 0, { unit: 'j' })] })).id,
  });
  const swiss = await customer({
    name: 'Horlogerie Favre SA',
    address: { line1: 'Rue du Rhône 40', postal_code: '1204', city: 'Genève', country: 'Suisse' },
  });
  cases.push({
    name: 'export outside the EU (G)',
    id: (await issue({ customer_id: swiss.id, items: [line('Pendule', 1, 2400, 0, { kind: 'goods' })] })).id,
  });

  const person = await customer({
    type: 'individual',
    name: 'Camille Martin',
    email: 'camille@example.fr',
    address: { line1: '3 rue des Lilas', postal_code: '75011', city: 'Paris' },
  });
  cases.push({ name: 'B2C with e-mail', id: (await issue({ customer_id: person.id, items: [line('Cours de yoga', 10, 25)] })).id });
  const anonymous = await customer({
    type: 'individual',
    name: 'Paul Durand',
    address: { line1: '12 rue de la Paix', postal_code: '44000', city: 'Nantes' },
  });
  cases.push({ name: 'B2C without e-mail', id: (await issue({ customer_id: anonymous.id, items: [line('Cours de guitare', 4, 30)] })).id });

  await ok('POST', '/api/currencies', { code: 'USD', rate: '1,085' });
  const american = await customer({ ...french, name: 'Boulangerie Martin (USD)', currency: 'USD' });
  cases.push({
    name: 'foreign currency (USD, BT-6)',
    id: (await issue({ customer_id: american.id, currency: 'USD', items: [line('Design', 3, 333.33)] })).id,
  });
  const ttc = await issue({
    customer_id: b2b.id,
    price_mode: 'ttc',
    items: [line('Formation', 3, 99.99), line('Livre', 7, 12.35, 5.5, { kind: 'goods' }), line('Repas', 2, 17.9, 10)],
    discount_type: 'amount',
    discount_value: 13.33,
    shipping: 9.9,
  });
  cases.push({ name: 'prices entered TTC', id: ttc.id });

  const franchise = await owner(baseUrl, 'franchise');
  const { vat_number: _vat, legal_form: _form, capital: _capital, ...identity } = seller;
  const fok = async (method: string, url: string, body?: unknown) => {
    const answer = await franchise(method, url, body);
    if (answer.status >= 300) throw new Error(`${method} ${url} : ${answer.status} ${JSON.stringify(answer.body)}`);
    return defined(answer.body?.data ?? answer.body);
  };
  await fok('PUT', '/api/organization', { ...identity, legal_form: 'EI', vat_regime: 'franchise' });
  const pupil = await fok('POST', '/api/customers', { ...french, type: 'individual', business_id: '', email: 'eleve@example.fr' });
  const lesson = await issue({ customer_id: pupil.id, items: [line('Cours de piano', 4, 35, 0, { unit: 'h' })], shipping: 10 }, fok);
  cases.push({ name: 'franchise 293 B', id: lesson.id });
  return cases;
}

export async function benchEinvoiceMatrix(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-bench-einvoice-'));
  const env = loadEnv({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `file:${path.join(dir, 'bench.db')}`,
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    PLAN_LIMITS: 'off',
    // The issues validate in a worker, cold at the first one: on a loaded machine that may outlast the default budget.
    HEAVY_WORKERS: '1',
    HEAVY_TASK_SECONDS: '600',
  });
  const app = await createApp(env, { archiveOnIssue: false, scheduler: false, flows: { start: false } });
  try {
    const url = await app.listen();
    const db = app.deps.db;
    const cases = await issueMatrix(url, db);
    const warningRules = { cii: frenchWarningRules('cii'), ubl: frenchWarningRules('ubl') };

    console.log('\n## E-invoice test matrix: EN 16931 + BR-FR-Flux2 (+ Factur-X 1.09 for CII), in-process');
    console.log(
      `generate: the XML from the issued document (database reads included), validate: every rule set; medians of ${RUNS} runs after a first one`,
    );
    console.log(
      '| case | BT-3 | syntax | bytes | fatal | EN 16931 / Factur-X warnings | BR-FR warnings | generate ms | validate ms | flow ms | warning rules |',
    );
    console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
    let fatalTotal = 0;
    for (const { name, id } of cases) {
      const organizationId = defined(
        (await db.selectFrom('documents').select('organization_id').where('id', '=', id).executeTakeFirst())?.organization_id,
      );
      for (const syntax of ['cii', 'ubl'] as const) {
        const xml = await buildEinvoiceXml(db, organizationId, id, syntax);
        const result = await validateFrenchEinvoice(xml, syntax, { facturx: syntax === 'cii' });
        const generate: number[] = [];
        const validate: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          let start = performance.now();
          await buildEinvoiceXml(db, organizationId, id, syntax);
          generate.push(performance.now() - start);
          start = performance.now();
          await validateFrenchEinvoice(xml, syntax, { facturx: syntax === 'cii' });
          validate.push(performance.now() - start);
        }
        const french = result.asserts.filter((a) => a.rule.startsWith('BR-FR'));
        const others = result.asserts.filter((a) => !a.rule.startsWith('BR-FR'));
        const frenchWarnings = french.filter((a) => warningRules[syntax].has(a.rule));
        const fatal = others.filter((a) => a.flag === 'fatal').length + (french.length - frenchWarnings.length) + result.problems.length;
        fatalTotal += fatal;
        const typeCode = /<(?:ram:TypeCode|cbc:InvoiceTypeCode|cbc:CreditNoteTypeCode)>(\d+)</.exec(xml)?.[1] ?? '?';
        const [g, v] = [median(generate), median(validate)];
        console.log(
          `| ${name} | ${typeCode} | ${syntax.toUpperCase()} | ${Buffer.byteLength(xml)} | ${fatal} | ${others.filter((a) => a.flag === 'warning').length} | ${frenchWarnings.length} | ${g.toFixed(1)} | ${v.toFixed(0)} | ${(g + v).toFixed(0)} | ${[...new Set(result.asserts.filter((a) => a.flag === 'warning' || warningRules[syntax].has(a.rule)).map((a) => a.rule))].join(' ') || '—'} |`,
        );
        for (const a of result.asserts.filter((x) => x.flag === 'fatal').slice(0, 5))
          console.log(`  ↳ ${a.rule} ${a.message.slice(0, 160)}`);
      }
    }
    // The product corrects an invoice by a credit note (381): it issues no corrective invoice (384).
    console.log('| corrective invoice: not issued by the product (a credit note corrects) | 384 | — | — | — | — | — | — | — | — | — |');
    console.log(`\nFatal asserts over the matrix: ${fatalTotal}${fatalTotal === 0 ? '' : ' — every e-invoice must pass with none'}`);
    if (fatalTotal > 0) process.exitCode = 1;
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEinvoiceMatrix();
