import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractComponents, type SchemaSlot } from '../../src/server/openapi/components';
import { hoistDefinitions, jsonSchemaOf, type JsonSchema } from '../../src/server/openapi/json-schema';

const address = z.object({
  line1: z.string().max(200).meta({ label: 'Adresse' }),
  postal_code: z.string().max(20).meta({ label: 'Code postal' }),
  city: z.string().max(100).meta({ label: 'Ville' }),
});

describe('the schemas of the OpenAPI document', () => {
  it('publish the French label as a title, drop the keys that only steer messages, prefix any other with x-', () => {
    const schema = z.object({
      lines: z.array(z.object({ qty: z.number() })).meta({ label: 'lignes', itemLabel: 'ligne' }),
      amount: z.union([z.number().min(0), z.string().max(20)]).meta({ label: 'Montant', unit: 'EUR' }),
    });
    const json = jsonSchemaOf(schema.meta({ pathLabels: true }), 'input') as { properties: Record<string, JsonSchema> } & JsonSchema;
    expect(json.pathLabels).toBeUndefined();
    expect(json.properties.lines).toMatchObject({ title: 'lignes', type: 'array' });
    expect(json.properties.lines).not.toHaveProperty('itemLabel');
    expect(json.properties.lines).not.toHaveProperty('label');
    expect(json.properties.amount).toMatchObject({ title: 'Montant', 'x-unit': 'EUR' });
    // One type per schema: a number-or-string is two branches, each with its own keywords.
    const coerced = jsonSchemaOf(z.object({ n: z.number().min(1).or(z.string().max(9)) }), 'input') as { properties: { n: JsonSchema } };
    expect(JSON.stringify(coerced.properties.n)).not.toContain('"type":["');
  });

  it('share a schema used twice as one component, its place’s title beside the $ref, and keep a schema used once inline', () => {
    const slots: SchemaSlot[] = [
      {
        holder: { schema: jsonSchemaOf(z.object({ address: address.meta({ label: 'Adresse' }) }), 'output') },
        name: 'CustomersGetAnswer',
        side: 'output',
      },
      {
        holder: {
          schema: jsonSchemaOf(z.object({ address: address.meta({ label: 'Adresse de livraison' }), note: z.string() }), 'output'),
        },
        name: 'DocumentsGetAnswer',
        side: 'output',
      },
    ];
    const components = extractComponents(slots, { Error: { type: 'object' } });
    expect(Object.keys(components).sort()).toEqual(['Address', 'Error']);
    expect(components.Address).toMatchObject({ type: 'object', properties: { line1: { title: 'Adresse' } } });
    expect(components.Address).not.toHaveProperty('title');
    const [first, second] = slots.map((slot) => slot.holder.schema as { properties: Record<string, JsonSchema> });
    expect(first?.properties.address).toEqual({ $ref: '#/components/schemas/Address', title: 'Adresse' });
    expect(second?.properties.address).toEqual({ $ref: '#/components/schemas/Address', title: 'Adresse de livraison' });
    expect(second?.properties.note).toEqual({ type: 'string' });
  });

  it('move a recursive schema’s own definitions into components', () => {
    type Node = { name: string; children: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
    const components: Record<string, JsonSchema> = {};
    const json = hoistDefinitions(jsonSchemaOf(z.object({ tree: node }), 'output'), 'TreeGetAnswer', components);
    const text = JSON.stringify({ json, components });
    expect(text).not.toContain('#/$defs/');
    expect(json).not.toHaveProperty('$defs');
    const [name] = Object.keys(components);
    expect((json as { properties: { tree: JsonSchema } }).properties.tree).toEqual({ $ref: `#/components/schemas/${name}` });
    expect(JSON.stringify(components[name ?? ''])).toContain(`"$ref":"#/components/schemas/${name}"`);
  });
});
