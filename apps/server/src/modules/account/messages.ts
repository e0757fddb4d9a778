import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    // Not the person's own name: invitations read "Alice Doe invited you to Alice Doe's account".
    'account.default_name': "{name}'s account",
  },
  es: {
    'account.default_name': 'Cuenta de {name}',
  },
});
