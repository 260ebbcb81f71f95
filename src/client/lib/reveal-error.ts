import { showMessage } from '../stores/snackbar';

/**
 * After a refused form: says so where the user clicked (the snackbar) and brings the first field in error into view
 * with the focus, once React has marked it (aria-invalid). A long settings form's top may be far from its Save button.
 */
export function revealFirstError(count = 1): void {
  showMessage(
    count > 1
      ? `${count} champs sont à corriger : ils sont signalés dans le formulaire`
      : 'Un champ est à corriger : il est signalé dans le formulaire',
    400,
  );
  requestAnimationFrame(() => {
    const field = document.querySelector<HTMLElement>('main [aria-invalid="true"], [role="dialog"] [aria-invalid="true"]');
    field?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    field?.focus({ preventScroll: true });
  });
}
