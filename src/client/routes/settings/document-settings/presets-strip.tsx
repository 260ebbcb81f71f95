import { css } from '../../../../../styled-system/css';
import { TEMPLATE_PRESET_NAMES, type TemplatePresetName } from '../../../../shared/template-presets/names';
import { Button } from '../../../components/ui/button';
import { Tooltip } from '../../../components/ui/tooltip';
import { confirm } from '../../../stores/confirm';
import { showMessage } from '../../../stores/snackbar';
import { CHUNK_ERROR_TEXT, CHUNK_PART_ERROR_TITLE } from '../../../components/page-loading';
import { designer, draft } from './designer-store';

const styles = {
  strip: css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' }),
  label: css({ fontSize: 'sm', fontWeight: '600', mr: '1' }),
};

/** Starts from a ready-made look after a confirmation; numbering and predefined texts stay as they are. */
async function applyAfterConfirm(preset: TemplatePresetName) {
  // The layouts come while the confirmation is read.
  const presets = import('../../../../shared/template-presets');
  const replace = await confirm('Remplacer la mise en page actuelle ?', {
    title: `Modèle « ${preset.label} »`,
    confirmLabel: 'Remplacer',
  });
  if (!replace) return;
  const module = await presets.catch(() => undefined);
  if (!module) {
    showMessage(`${CHUNK_PART_ERROR_TITLE}. ${CHUNK_ERROR_TEXT}`, 400);
    return;
  }
  const { applyPreset } = module;
  try {
    designer.draft = applyPreset(draft(), preset.id);
  } catch {
    // The kept numbering or texts do not validate: the messages beside those fields say what to fix.
    showMessage('Corrigez d’abord la numérotation et les textes prédéfinis', 400);
  }
}

/** The ready-made looks, one button each; the tooltip says what each looks like. */
export function PresetsStrip() {
  return (
    <section aria-label="Modèles prêts à l’emploi" className={styles.strip}>
      <span className={styles.label}>Partir d’un modèle :</span>
      {TEMPLATE_PRESET_NAMES.map((preset) => (
        <Tooltip key={preset.id} label={preset.description}>
          <Button
            size="sm"
            variant="outline"
            aria-label={`Appliquer le modèle ${preset.label}`}
            onClick={() => void applyAfterConfirm(preset)}
          >
            {preset.label}
          </Button>
        </Tooltip>
      ))}
    </section>
  );
}
