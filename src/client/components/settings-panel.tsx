import { useId } from 'react';
import { useSnapshot } from 'valtio';
import { css } from '../../../styled-system/css';
import { display, setThemeMode, type ThemeMode } from '../stores/display';
import { openFeedbackFromPanel, ui } from '../stores/ui';
// Already in the overlays' own lazy chunk (app.tsx): Ark's dialog directly, mounted closed before it first opens.
import { ArkDialogBox as Dialog } from './ui/ark-dialog';
import { MessageIcon } from './icons';

/** SPEC §3 option lists: text size (pixel value on the root) and fonts. */
export const TEXT_SIZES = [
  { label: '80%', value: 13 },
  { label: '90%', value: 14 },
  { label: '100%', value: 15 },
  { label: '110%', value: 16 },
  { label: '120%', value: 17 },
];
/** Roboto, Karla and Figtree ship with the app; the others are the visitor's own system fonts when installed. */
export const FONTS = [
  { label: 'Par défaut du système', value: 'system-ui' },
  { label: 'Roboto', value: 'Roboto' },
  { label: 'Karla', value: 'Karla' },
  { label: 'Figtree', value: 'Figtree' },
  { label: 'Arial', value: 'Arial' },
  { label: 'Tahoma', value: 'Tahoma' },
  { label: 'Georgia', value: 'Georgia' },
  { label: 'Helvetica', value: 'Helvetica' },
  { label: 'Verdana', value: 'Verdana' },
];
const THEMES: { value: ThemeMode; label: string }[] = [
  { value: 'light', label: 'Claire' },
  { value: 'dark', label: 'Sombre' },
  { value: 'system', label: 'Système' },
];

const styles = {
  section: css({ display: 'flex', flexDirection: 'column', gap: '2', py: '3' }),
  legend: css({ fontSize: 'xs', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted' }),
  segments: css({ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: '1', p: '1', bg: 'bg.subtle', borderRadius: 'lg' }),
  segment: css({
    position: 'relative',
    textAlign: 'center',
    fontSize: 'sm',
    fontWeight: '600',
    py: '1.5',
    borderRadius: 'md',
    cursor: 'pointer',
    color: 'fg.muted',
    '&:has(input:checked)': { bg: 'bg.surface', color: 'fg.default', boxShadow: 'card' },
    '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'accent.default' },
    '& input': { position: 'absolute', opacity: 0, inset: 0, cursor: 'pointer' },
  }),
  select: css({
    h: '10',
    px: '3',
    borderRadius: 'lg',
    borderWidth: '1px',
    borderColor: 'border.default',
    bg: 'bg.surface',
    color: 'fg.default',
    fontSize: 'sm',
  }),
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

/** SPEC §2 settings side panel: 300 px on the right, 'Paramètre Application'; choices apply live and persist locally. */
export function SettingsPanel() {
  const snap = useSnapshot(display);
  const open = useSnapshot(ui).settingsPanel;
  const sizeId = useId();
  const fontId = useId();
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
        <fieldset className={styles.section}>
          <legend className={styles.legend}>Thème</legend>
          <div className={styles.segments}>
            {THEMES.map((t) => (
              <label key={t.value} className={styles.segment}>
                <input
                  type="radio"
                  name="theme"
                  value={t.value}
                  checked={snap.theme_mode === t.value}
                  onChange={() => setThemeMode(t.value)}
                />
                {t.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className={styles.section}>
          <label htmlFor={sizeId} className={styles.legend}>
            Taille du texte
          </label>
          <select
            id={sizeId}
            className={styles.select}
            value={snap.font_size}
            onChange={(e) => (display.font_size = Number(e.target.value))}
          >
            {TEXT_SIZES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.section}>
          <label htmlFor={fontId} className={styles.legend}>
            Police
          </label>
          <select id={fontId} className={styles.select} value={snap.font_family} onChange={(e) => (display.font_family = e.target.value)}>
            {FONTS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
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
