import { useTranslation } from 'react-i18next';
import { Moon, Sun } from 'lucide-react';
import { LOCALES, type TLocale } from '@/lib/i18n';
import { changeLocale } from '@/lib/locale';
import { setTheme, useTheme } from '@/lib/theme';
import { Button } from '@/components/ui/button';

/** Language and theme switches for pages without a user menu (auth, public). */
export function PreferencesBar() {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  return (
    <div className="flex items-center gap-1">
      <label className="sr-only" htmlFor="preferences-language">
        {t('userMenu.language')}
      </label>
      <select
        id="preferences-language"
        value={i18n.language}
        onChange={(event) => changeLocale(event.target.value as TLocale)}
        className="h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {LOCALES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`language.${lng}`)}
          </option>
        ))}
      </select>
      <Button
        variant="ghost"
        size="icon"
        aria-label={theme === 'dark' ? t('userMenu.lightMode') : t('userMenu.darkMode')}
        onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
      >
        {theme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
      </Button>
    </div>
  );
}
