import { useLocation } from 'wouter';
import { css } from '../../../styled-system/css';
import { trpc } from '../trpc';
import { showMessage } from '../stores/snackbar';
import { ROLE_LABELS } from '../../shared/roles';
import { Field } from '../components/ui/field';
import { Select } from '../components/ui/select';

/**
 * The drawer's organisation picker: shown to a user who belongs to several, it moves the session to
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
    <Field
      size="sm"
      label="Entreprise"
      className={css({ px: '3', py: '2', borderBottomWidth: '1px', borderColor: 'border.default' })}
      disabled={change.isPending}
    >
      <Select
        size="sm"
        value={String(current?.id ?? '')}
        disabled={change.isPending}
        options={list.map((o) => ({ value: String(o.id), label: `${o.name} · ${ROLE_LABELS[o.role]}` }))}
        onChange={(id) => change.mutate({ id: Number(id) })}
      />
    </Field>
  );
}
