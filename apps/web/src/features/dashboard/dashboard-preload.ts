import { hasPermission } from '@air/shared/permissions';
import { getSession } from '@/lib/session';
import { quickstartKeyQuery, quickstartRouteQuery } from './dashboard-data';
import { overviewQuery } from './overview-api';

/** What the dashboard asks first; the example key only for members who may read keys (a refused call is an error in the console). */
export function dashboardQueries() {
  const canReadKeys = hasPermission(getSession().user?.permission, 'developer');
  return [overviewQuery, quickstartRouteQuery, ...(canReadKeys ? [quickstartKeyQuery] : [])];
}
