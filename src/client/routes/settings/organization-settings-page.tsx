import { Link } from 'wouter';
import { useState, type ChangeEvent } from 'react';
import { css } from '../../../../styled-system/css';
import { LOGO_MAX_BYTES, organizationSettingsSchema, type OrganizationSettings } from '../../../shared/schemas/organization';
import { frenchVatNumber, isValidSiren } from '../../../shared/identifiers';
import { trpc } from '../../trpc';
import { revealFirstError } from '../../lib/reveal-error';
import { showMessage } from '../../stores/snackbar';
import { useSavedForm } from '../../lib/use-saved-form';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { RadioGroup } from '../../components/ui/radio-group';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { SettingsActions, SettingsFrame, settingsCard, settingsGrid, settingsSection } from './settings-frame';
import { fieldMessages } from '../../../shared/validation-messages';

type KeyValueList = 'identifications' | 'additional_info';

const VAT_REGIMES = [
  { value: 'normal', label: 'Assujetti à la TVA' },
  { value: 'franchise', label: 'Franchise en base de TVA (« TVA non applicable, art. 293 B du CGI »)' },
];

/** Paramètres → Infos de l'entreprise: the seller's identity printed on every document (CGI art. 242 nonies A). */
export function OrganizationSettingsPage() {
  const utils = trpc.useUtils();
  const saved = trpc.organization.get.useQuery(undefined, { staleTime: 0 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const current = saved.data ? (({ logo_url: _, ...profile }) => profile)(saved.data) : null;
  const { form, setForm, dirty } = useSavedForm(current);
  const save = trpc.organization.update.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      utils.organization.get.setData(undefined, answer.data);
      void utils.auth.me.invalidate(); // the drawer shows the organisation's name
      const { logo_url: _, ...profile } = answer.data;
      setForm(profile);
    },
  });
  const upload = trpc.organization.uploadLogo.useMutation({
    onSuccess: (a) => {
      showMessage(a.messages, 200);
      return utils.organization.get.invalidate();
    },
  });
  const removeLogo = trpc.organization.deleteLogo.useMutation({
    onSuccess: (a) => {
      showMessage(a.messages, 200);
      return utils.organization.get.invalidate();
    },
  });

  if (!form)
    return <SettingsFrame>{saved.isError ? <p>Le profil n’a pas pu être chargé.</p> : <Spinner label="Chargement" />}</SettingsFrame>;
  const set = (key: keyof OrganizationSettings) => (e: { target: { value: string } }) => {
    setErrors(({ [key]: _, ...rest }) => rest);
    setForm({ ...form, [key]: e.target.value });
  };
  const setAddress = (key: keyof OrganizationSettings['address']) => (e: { target: { value: string } }) => {
    setErrors(({ [`address.${key}`]: _, ...rest }) => rest);
    setForm({ ...form, address: { ...form.address, [key]: e.target.value } });
  };
  const siren = form.siret.replace(/\D/g, '').slice(0, 9);
  const setPair = (list: KeyValueList, index: number, part: 'key' | 'value', value: string) => {
    setErrors(({ [`${list}.${index}.${part}`]: _, ...rest }) => rest);
    setForm({ ...form, [list]: form[list].map((pair, i) => (i === index ? { ...pair, [part]: value } : pair)) });
  };

  async function pickLogo(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!['image/png', 'image/jpeg', 'image/webp'].includes(file.type))
      return showMessage('Le logo doit être une image PNG, JPEG ou WebP', 400);
    if (file.size > LOGO_MAX_BYTES) return showMessage('Le logo dépasse 1 Mo', 400);
    const dataUrl = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
    upload.mutate({ data_url: dataUrl });
  }

  function submit() {
    const result = organizationSettingsSchema.safeParse(form);
    if (!result.success) {
      // Keyed by the whole path: an address field's error (« address.postal_code ») shows beside that field.
      const next = fieldMessages(result.error.issues);
      setErrors(next);
      revealFirstError(Object.keys(next).length);
      return;
    }
    setErrors({});
    save.mutate(result.data);
  }

  const pairs = (list: KeyValueList, title: string, example: string) => (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p className={settingsSection}>{title}</p>
      {form[list].map((pair, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are only added at the end or removed with their inputs, so the index is their identity
        <div key={i} className={css({ display: 'grid', gridTemplateColumns: '1fr 2fr auto', gap: '2', alignItems: 'end' })}>
          <TextField
            label="Libellé"
            value={pair.key}
            onChange={(e) => setPair(list, i, 'key', e.target.value)}
            error={errors[`${list}.${i}.key`]}
          />
          <TextField
            label="Valeur"
            value={pair.value}
            onChange={(e) => setPair(list, i, 'value', e.target.value)}
            error={errors[`${list}.${i}.value`]}
          />
          <Button
            variant="ghost"
            onClick={() => setForm({ ...form, [list]: form[list].filter((_, j) => j !== i) })}
            aria-label={`Retirer ${pair.key || 'la ligne'}`}
          >
            Retirer
          </Button>
        </div>
      ))}
      <Button
        variant="outline"
        size="sm"
        className={css({ alignSelf: 'flex-start' })}
        onClick={() => setForm({ ...form, [list]: [...form[list], { key: '', value: '' }] })}
      >
        Ajouter une ligne ({example})
      </Button>
    </div>
  );

  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Logo</p>
        <div className={css({ display: 'flex', gap: '4', alignItems: 'center', flexWrap: 'wrap' })}>
          <div
            className={css({
              w: '40',
              h: '20',
              borderRadius: 'lg',
              borderWidth: '1px',
              borderStyle: 'dashed',
              borderColor: 'border.strong',
              display: 'grid',
              placeItems: 'center',
              overflow: 'hidden',
              bg: 'bg.subtle',
              fontSize: 'xs',
              color: 'fg.muted',
            })}
          >
            {saved.data?.logo_url ? (
              <img
                src={saved.data.logo_url}
                alt="Logo de l’entreprise"
                className={css({ maxW: 'full', maxH: 'full', objectFit: 'contain' })}
              />
            ) : (
              'Aucun logo'
            )}
          </div>
          <label className={css({ fontSize: 'sm', fontWeight: '600', color: 'accent.fg', cursor: 'pointer' })}>
            {upload.isPending ? 'Envoi…' : saved.data?.logo_url ? 'Changer le logo' : 'Choisir un logo'}
            <input
              type="file"
              accept="image/png,image/jpeg,image/webp"
              className={css({ srOnly: true })}
              onChange={pickLogo}
              aria-label="Logo (PNG, JPEG ou WebP, 1 Mo au plus)"
            />
          </label>
          {saved.data?.logo_url && (
            <Button variant="ghost" size="sm" onClick={() => removeLogo.mutate()}>
              Supprimer le logo
            </Button>
          )}
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>PNG, JPEG ou WebP, 1 Mo au plus</span>
        </div>

        <p className={settingsSection}>Identité</p>
        <div className={settingsGrid}>
          <TextField label="Nom de l’entreprise" value={form.name} onChange={set('name')} error={errors.name} />
          <TextField label="Forme juridique" placeholder="SARL, SAS, EI…" value={form.legal_form} onChange={set('legal_form')} />
          <TextField label="Capital social" placeholder="10 000 €" value={form.capital} onChange={set('capital')} />
          <TextField label="SIRET" inputMode="numeric" value={form.siret} onChange={set('siret')} error={errors.siret} />
          <TextField label="Ville du RCS" placeholder="Paris" value={form.rcs_city} onChange={set('rcs_city')} />
          <TextField
            label="Immatriculation au RM"
            placeholder="RM 123 456 789 Paris"
            hint="Artisans : Répertoire des métiers, à la place ou en plus du RCS"
            value={form.rm_registration}
            onChange={set('rm_registration')}
            error={errors.rm_registration}
          />
          <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}>
            <TextField
              className={css({ flex: '1' })}
              label="N° de TVA intracommunautaire"
              value={form.vat_number}
              onChange={set('vat_number')}
              error={errors.vat_number}
            />
            <Button
              variant="outline"
              disabled={!isValidSiren(siren)}
              onClick={() => setForm({ ...form, vat_number: frenchVatNumber(siren) })}
            >
              Calculer
            </Button>
          </div>
        </div>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          <RadioGroup
            label="Régime de TVA"
            name="vat-regime"
            orientation="vertical"
            options={VAT_REGIMES}
            value={form.vat_regime}
            onChange={(regime) =>
              setForm(
                regime === 'franchise' ? { ...form, vat_regime: 'franchise', vat_on_debits: false } : { ...form, vat_regime: 'normal' },
              )
            }
          />
          <Checkbox
            disabled={form.vat_regime === 'franchise'}
            checked={form.vat_on_debits}
            onChange={(checked) => setForm({ ...form, vat_on_debits: checked })}
          >
            Option pour le paiement de la taxe d’après les débits
          </Checkbox>
        </div>

        <p className={settingsSection}>Coordonnées</p>
        <div className={settingsGrid}>
          <TextField label="Adresse" value={form.address.line1} onChange={setAddress('line1')} error={errors['address.line1']} />
          <TextField label="Complément" value={form.address.line2} onChange={setAddress('line2')} error={errors['address.line2']} />
          <TextField
            label="Code postal"
            value={form.address.postal_code}
            onChange={setAddress('postal_code')}
            error={errors['address.postal_code']}
          />
          <TextField label="Ville" value={form.address.city} onChange={setAddress('city')} error={errors['address.city']} />
          <TextField label="E-mail" type="email" value={form.email} onChange={set('email')} error={errors.email} />
          <TextField label="Téléphone" value={form.phone} onChange={set('phone')} />
          <TextField label="Mobile" value={form.mobile} onChange={set('mobile')} />
          <TextField label="Site web" value={form.web} onChange={set('web')} />
        </div>
        {pairs('identifications', 'Identifiants', 'ex. APE 7022Z')}
        {pairs('additional_info', 'Informations complémentaires', 'ex. Bon à savoir')}
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
          L’IBAN et le BIC imprimés sur vos factures sont ceux de votre compte bancaire par défaut :{' '}
          <Link href="/settings/bank" className={css({ color: 'accent.fg', fontWeight: '600' })}>
            Paramètres → Comptes bancaires
          </Link>
          .
        </p>

        <SettingsActions
          dirty={dirty}
          saving={save.isPending}
          onUndo={() => {
            setForm(current);
            return setErrors({});
          }}
          onSave={submit}
        />
      </section>
    </SettingsFrame>
  );
}
