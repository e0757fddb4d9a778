import { getSession } from '@/lib/session';
import { mayReadKeys, quickstartKeyQuery, quickstartRouteQuery } from './dashboard-data';
import { overviewQuery } from './overview-api';

/** What the dashboard asks first, as the page itself asks it. */
export function dashboardQueries() {
  const keyToo = mayReadKeys(getSession().user?.permission);
  return [overviewQuery, quickstartRouteQuery, ...(keyToo ? [quickstartKeyQuery] : [])];
}
