import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

type TFlag = 'isActive' | 'isPrivate' | 'isShared';

/**
 * Active, Private and Shared, each saved on change (PATCH). Private and Shared show only to a
 * signed-in user (spec section 6). A failed save puts the switch back.
 */
export function EndpointSwitches({
  endpoint,
  signedIn,
  readOnly,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  signedIn: boolean;
  readOnly: boolean;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const [values, setValues] = React.useState<Record<TFlag, boolean>>({
    isActive: endpoint.isActive,
    isPrivate: endpoint.isPrivate,
    isShared: endpoint.isShared,
  });
  const [saving, setSaving] = React.useState<TFlag | null>(null);

  async function save(flag: TFlag, next: boolean) {
    const previous = values[flag];
    setValues((v) => ({ ...v, [flag]: next }));
    setSaving(flag);
    try {
      await call('PATCH /api/aiendpoint/:id', { params: { id: endpoint.id }, body: { [flag]: next } });
      toast({ variant: 'success', title: t('detail.saved') });
      onSaved({ [flag]: next });
    } catch (error) {
      setValues((v) => ({ ...v, [flag]: previous }));
      handleError(error);
    } finally {
      setSaving(null);
    }
  }

  const flags: { flag: TFlag; label: string; help: string }[] = [
    { flag: 'isActive', label: t('detail.active'), help: t('detail.activeHelp') },
    ...(signedIn
      ? [
          { flag: 'isPrivate' as const, label: t('detail.private'), help: t('detail.privateHelp') },
          { flag: 'isShared' as const, label: t('detail.shared'), help: t('detail.sharedHelp') },
        ]
      : []),
  ];

  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {flags.map(({ flag, label, help }) => (
        <div key={flag} className="flex items-start justify-between gap-3 rounded-md border p-3">
          <div className="space-y-1">
            <Label htmlFor={`switch-${flag}`}>{label}</Label>
            <p id={`switch-${flag}-help`} className="text-xs text-muted-foreground">
              {help}
            </p>
          </div>
          <Switch
            id={`switch-${flag}`}
            aria-describedby={`switch-${flag}-help`}
            checked={values[flag]}
            disabled={readOnly || saving !== null}
            onCheckedChange={(next) => void save(flag, next)}
          />
        </div>
      ))}
    </div>
  );
}
