import { forwardRef, useState, type InputHTMLAttributes } from 'react';
import { css } from '../../../../styled-system/css';
import { TextField } from '../../components/ui/text-field';
import { EyeIcon, EyeOffIcon } from '../../components/icons';

type Props = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | null; hint?: string };

/** A password input with a show/hide toggle, so a mistyped password can be checked before sending. */
export const PasswordField = forwardRef<HTMLInputElement, Props>(function PasswordField(props, ref) {
  const [visible, setVisible] = useState(false);
  return (
    <div className={css({ position: 'relative' })}>
      <TextField ref={ref} type={visible ? 'text' : 'password'} {...props} className={css({ '& input': { pr: '10' } })} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? 'Masquer le mot de passe' : 'Afficher le mot de passe'}
        aria-pressed={visible}
        className={css({
          position: 'absolute',
          right: '2',
          top: '31px',
          w: '7',
          h: '7',
          display: 'grid',
          placeItems: 'center',
          color: 'fg.muted',
          borderRadius: 'md',
          cursor: 'pointer',
          _hover: { color: 'fg.default' },
        })}
      >
        {visible ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
      </button>
    </div>
  );
});
