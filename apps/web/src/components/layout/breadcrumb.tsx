import { Fragment } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronRight } from 'lucide-react';

export interface TBreadcrumbItem {
  name: string;
  url: string;
}

/** A trail of links; the last item is the current page and is not a link. */
export function Breadcrumb({ items }: { items: TBreadcrumbItem[] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('breadcrumb.label')} className="mb-4 text-sm text-muted-foreground">
      <ol className="flex flex-wrap items-center gap-1">
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <Fragment key={item.url}>
              <li>
                {last ? (
                  <span aria-current="page" className="font-medium text-foreground">
                    {item.name}
                  </span>
                ) : (
                  <Link to={item.url} className="hover:text-foreground hover:underline">
                    {item.name}
                  </Link>
                )}
              </li>
              {!last && (
                <li aria-hidden="true">
                  <ChevronRight className="size-3.5" />
                </li>
              )}
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
