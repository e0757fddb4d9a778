import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

// Spec section 2: six "Agent 00x" cards; the sixth holds a blank slate. Its button opens the airs
// list's create dialog: /airs/{id} of an entry that does not exist yet would only be a 404.
const AGENTS = [1, 2, 3, 4, 5, 6] as const;
const LAST = AGENTS.length;

/** The static AIR placeholder page (/airindex, /air, /airfull, /mktfull). */
export default function AirPlaceholderPage() {
  const { t } = useTranslation();
  return (
    <section>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{t('air.title')}</h1>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {AGENTS.map((n) => (
          <Card key={n}>
            <CardHeader>
              <CardTitle>{t('air.agent', { number: String(n).padStart(3, '0') })}</CardTitle>
            </CardHeader>
            <CardContent>
              {n === LAST ? (
                <BlankSlate
                  title={t('air.blankTitle')}
                  text={t('air.blankText')}
                  action={
                    <Button asChild size="sm">
                      <Link to="/airs?create=1">{t('air.blankButton')}</Link>
                    </Button>
                  }
                />
              ) : (
                <p className="text-sm text-muted-foreground">{t('air.cardText')}</p>
              )}
            </CardContent>
          </Card>
        ))}
      </div>
    </section>
  );
}
