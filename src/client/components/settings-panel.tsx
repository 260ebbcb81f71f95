import { useSnapshot } from 'valtio';
import { css } from '../../../styled-system/css';
import { display, setThemeMode, type ThemeMode } from '../stores/display';
import { openFeedbackFromPanel, ui } from '../stores/ui';
// Already in the overlays' own lazy chunk (app.tsx): Ark's dialog directly, mounted closed before it first opens.
import { ArkDialogBox as Dialog } from './ui/ark-dialog';
import { MessageIcon } from './icons';
import { Field } from './ui/field';
import { RadioGroup } from './ui/radio-group';
import { Select } from './ui/select';
import { FONTS, TEXT_SIZES } from './display-options';

const TEXT_SIZE_OPTIONS = TEXT_SIZES.map((s) => ({ label: s.label, value: String(s.value) }));
const THEMES: { value: ThemeMode; label: string }[] = [
  { value: 'light', label: 'Claire' },
  { value: 'dark', label: 'Sombre' },
  { value: 'system', label: 'Système' },
];

const styles = {
  section: css({ display: 'flex', flexDirection: 'column', gap: '2', py: '3' }),
  footer: css({
    mt: 'auto',
    pt: '3',
    borderTopWidth: '1px',
    borderColor: 'border.default',
    display: 'flex',
    flexDirection: 'column',
    gap: '2',
  }),
  version: css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', color: 'fg.muted' }),
  versionButton: css({
    px: '2',
    py: '0.5',
    borderRadius: 'md',
    borderWidth: '1px',
    borderColor: 'border.strong',
    fontWeight: '700',
    fontSize: 'xs',
    color: 'fg.default',
    cursor: 'default',
  }),
  feedback: css({
    display: 'flex',
    alignItems: 'center',
    gap: '2',
    h: '10',
    px: '2',
    borderRadius: 'lg',
    fontSize: 'sm',
    fontWeight: '600',
    color: 'accent.fg',
    cursor: 'pointer',
    _hover: { bg: 'accent.subtle' },
  }),
};

/** Settings side panel: 300 px on the right, 'Paramètre Application'; choices apply live and persist locally. */
export function SettingsPanel() {
  const snap = useSnapshot(display);
  const open = useSnapshot(ui).settingsPanel;
  return (
    <Dialog
      open={open}
      onClose={() => (ui.settingsPanel = false)}
      title="Paramètre Application"
      width={300}
      placement="right"
      screenshotHidden
    >
      <div className={css({ display: 'flex', flexDirection: 'column', minH: 'calc(100dvh - 90px)' })}>
        <RadioGroup
          label="Thème"
          name="theme"
          className={styles.section}
          options={THEMES}
          value={snap.theme_mode}
          onChange={(value) => setThemeMode(value as ThemeMode)}
        />
        <Field label="Taille du texte" className={styles.section}>
          <Select value={String(snap.font_size)} options={TEXT_SIZE_OPTIONS} onChange={(value) => (display.font_size = Number(value))} />
        </Field>
        <Field label="Police" className={styles.section}>
          <Select value={snap.font_family} options={FONTS} onChange={(value) => (display.font_family = value)} />
        </Field>
        <div className={styles.footer}>
          <div className={styles.version}>
            <button type="button" className={styles.versionButton} aria-label="Version 1.0.0">
              1.0.0
            </button>
            <span>Latest release</span>
          </div>
          <button type="button" className={styles.feedback} onClick={openFeedbackFromPanel}>
            <MessageIcon size={18} />
            Signaler ou suggérer
          </button>
        </div>
      </div>
    </Dialog>
  );
}
