import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { launchBrowser, newPage, screenshot } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { newUser, Session } from '../helpers/clients';
import { startFakePa, type FakePa } from '../helpers/fake-pa';
import { defined } from '../../src/shared/defined';

let server: TestServer;
let browser: Browser;
let pa: FakePa;
let session: Session;

beforeAll(async () => {
  [server, browser, pa] = await Promise.all([startTestServer(), launchBrowser(), startFakePa()]);
  session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', newUser({ organization: 'Atelier Durand' }));
});
afterAll(async () => {
  expect(pa?.violations).toEqual([]);
  await browser?.close();
  await Promise.all([server?.close(), pa?.close()]);
});

describe('Paramètres → Facturation électronique', () => {
  it('chooses the platform by keyboard, names bad fields, keeps the secret as « enregistré », and shows each service’s test result', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: defined(defined(session.cookie).split('=')[1]), url: server.url }]);
    await page.goto('/settings/einvoicing');
    // The settings page's own entry (the side menu also has « Facturation électronique », the overview page).
    await page.locator('a[href="/settings/einvoicing"][aria-current="page"]').waitFor();
    // Existing organisations keep the folder connector.
    const folder = page.getByRole('radio', { name: 'Dossier' });
    await folder.waitFor();
    expect(await folder.isChecked()).toBe(true);

    // Arrow keys move the choice in the group, as a radio group should.
    await folder.focus();
    await page.keyboard.press('ArrowDown');
    const afnor = page.getByRole('radio', { name: 'Plateforme agréée (API AFNOR XP Z12-013)' });
    expect(await afnor.isChecked()).toBe(true);
    await page.getByLabel('URL du Flow Service').waitFor();

    // Saving with the fields empty names each of them beside itself.
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Obligatoire pour une plateforme agréée').first().waitFor();
    expect(await page.getByText('Obligatoire pour une plateforme agréée').count()).toBe(2);
    await page.getByText('Obligatoire (4 caractères, donné par votre plateforme)').waitFor();
    await page.getByText('Saisissez un jeton d’accès, ou l’URL du jeton OAuth2 avec l’identifiant et le secret client').waitFor();

    await page.getByLabel('URL du Flow Service').fill(pa.flowUrl);
    await page.getByLabel('URL du Directory Service').fill(pa.directoryUrl);
    await page.getByLabel('Matricule de la plateforme').fill('0042');
    await page.getByLabel('URL du jeton OAuth2').fill(pa.tokenUrl);
    await page.getByLabel('Identifiant client OAuth2').fill(pa.clientId);
    await page.getByLabel('Secret client OAuth2').fill(pa.clientSecret);
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Mise à jour avec succès').waitFor();
    await page.getByText('Modifications non enregistrées').waitFor({ state: 'detached' });

    // After a reload the secret is « enregistré », never shown; « Remplacer » opens an empty field.
    await page.reload();
    await page.getByText('enregistré', { exact: true }).waitFor();
    expect(await page.content()).not.toContain(pa.clientSecret);
    await page.getByRole('button', { name: 'Tester la connexion' }).click();
    const result = page.getByRole('list', { name: 'Résultat du test de connexion' });
    await result.getByText('Flow Service : joignable').waitFor();
    await result.getByText('Directory Service : joignable').waitFor();

    // The Flow Service goes down: its line says why, the Directory Service's stays green.
    pa.fail({ target: 'flow', kind: 'unavailable' });
    await page.getByRole('button', { name: 'Tester la connexion' }).click();
    await result.getByText('Flow Service : échec — service indisponible (HTTP 503) (code RESOURCE_ERROR), réessayez plus tard').waitFor();
    await result.getByText('Directory Service : joignable').waitFor();
    await expectNoSeriousViolations(page, 'einvoicing settings');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-einvoicing');

    await page.getByRole('button', { name: 'Remplacer' }).click();
    const secret = page.getByLabel('Secret client OAuth2');
    expect(await secret.inputValue()).toBe('');
    expect(await secret.getAttribute('type')).toBe('password');
    pa.reset();
  });
});
