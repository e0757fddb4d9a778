import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { routeTypeBadge } from '../endpoint-types';

export function ActiveBadge({ active }: { active: boolean | undefined }) {
  const { t } = useTranslation('registry');
  return (
    <Badge variant={active ? 'green' : 'blue'}>{active ? t('badge.active') : t('badge.inactive')}</Badge>
  );
}

export function VisibilityBadge({ isPrivate }: { isPrivate: boolean | undefined }) {
  const { t } = useTranslation('registry');
  return (
    <Badge variant={isPrivate ? 'blue' : 'green'}>{isPrivate ? t('badge.private') : t('badge.public')}</Badge>
  );
}

export function RouteTypeBadge({ type }: { type: string }) {
  const { t } = useTranslation('registry');
  return <Badge variant={routeTypeBadge(type)}>{t(`type.${type}`, { defaultValue: type })}</Badge>;
}
