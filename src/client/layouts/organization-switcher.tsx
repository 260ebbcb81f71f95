import { useLocation } from 'wouter';
import { css } from '../../../styled-system/css';
import { trpc } from '../trpc';
import { showMessage } from '../stores/snackbar';
import { ROLE_LABELS } from '../../shared/roles';

/**
 * The drawer's organisation picker (issue 18): shown to a user who belongs to several, it moves the session to
 * another one and reloads every query, since every record on screen belonged to the previous organisation.
 */
export function OrganizationSwitcher() {
  const organizations = trpc.organizations.list.useQuery(undefined, { staleTime: 60_000 });
  const utils = trpc.useUtils();
  const [, navigate] = useLocation();
  const change = trpc.organizations.switch.useMutation({
    onSuccess: async (user) => {
      await utils.invalidate();
      navigate('/');
      showMessage(`Vous travaillez maintenant pour ${user.organization.name}`, 200);
    },
  });
  const list = organizations.data?.data ?? [];
  if (list.length < 2) return null;
  const current = list.find((o) => o.current);
  return (
    <label className={css({ display: 'block', px: '3', py: '2', borderBottomWidth: '1px', borderColor: 'border.default' })}>
      <span className={css({ display: 'block', fontSize: 'xs', color: 'fg.muted', mb: '1' })}>Entreprise</span>
      <select
        aria-label="Changer d’entreprise"
        className={css({
          w: 'full',
          fontSize: 'sm',
          fontWeight: '600',
          bg: 'bg.subtle',
          borderRadius: 'md',
          px: '2',
          py: '1.5',
          cursor: 'pointer',
        })}
        value={current?.id ?? ''}
        disabled={change.isPending}
        onChange={(e) => change.mutate({ id: Number(e.target.value) })}
      >
        {list.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name} · {ROLE_LABELS[o.role]}
          </option>
        ))}
      </select>
    </label>
  );
}
