import { css } from '../../../../../styled-system/css';
import { applyPreset, TEMPLATE_PRESETS, type TemplatePreset } from '../../../../shared/template-presets';
import { Button } from '../../../components/ui/button';
import { confirm } from '../../../stores/confirm';
import { showMessage } from '../../../stores/snackbar';
import { designer, draft } from './designer-store';
import { sectionTitle } from './fields';

const styles = {
  strip: css({ display: 'grid', gap: '2', gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))' }),
  card: css({ display: 'flex', flexDirection: 'column', gap: '1', alignItems: 'flex-start', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg', p: '3', bg: 'bg.surface' }),
  name: css({ fontWeight: '700', fontSize: 'sm' }),
  text: css({ fontSize: 'xs', color: 'fg.muted', flex: '1' }),
};

/** Starts from a ready-made look after a confirmation; numbering and predefined texts stay as they are. */
async function applyAfterConfirm(preset: TemplatePreset) {
  const replace = await confirm('Remplacer la mise en page actuelle ?', { title: `Modèle « ${preset.label} »`, confirmLabel: 'Remplacer' });
  if (!replace) return;
  try {
    designer.draft = applyPreset(draft(), preset.id);
  } catch {
    // The kept numbering or texts do not validate: the messages beside those fields say what to fix.
    showMessage('Corrigez d’abord la numérotation et les textes prédéfinis', 400);
  }
}

export function PresetsStrip() {
  return (
    <section aria-label="Modèles prêts à l’emploi" className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p className={sectionTitle}>Partir d’un modèle</p>
      <div className={styles.strip}>
        {TEMPLATE_PRESETS.map((preset) => (
          <div key={preset.id} className={styles.card}>
            <span className={styles.name}>{preset.label}</span>
            <span className={styles.text}>{preset.description}</span>
            <Button size="sm" variant="outline" aria-label={`Appliquer le modèle ${preset.label}`} onClick={() => void applyAfterConfirm(preset)}>
              Appliquer
            </Button>
          </div>
        ))}
      </div>
    </section>
  );
}
